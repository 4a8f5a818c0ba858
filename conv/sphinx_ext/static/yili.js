/* The reader's toolbar of the 仪礼 edition (阅读工具栏).
 *
 * The toolbar is in the page's HTML (conv/sphinx_ext/output/toolbar.py): a checkbox per
 * commentary layer of the page (注 疏 按 音义 目录) and the choice between the diplomatic view
 * (底本: the witness's own forms) and the normalized view (规范: 賔→宾, PUA resolved). The saved
 * choice was applied before the first paint by the inline head script (yili-head.js,
 * window.YL_VIEW); this script keeps the controls and the page in step with it, saves each
 * change, and follows a change made in another tab. Without JavaScript the toolbar is hidden,
 * every layer is shown and the diplomatic view is used.
 */
(function () {
  "use strict";

  var view = window.YL_VIEW;
  if (!view) return;
  var state = view.load();

  function change() {
    view.apply(state);
    view.save(state);
  }

  function wire(bar) {
    if (bar.getAttribute("data-wired")) return;
    bar.setAttribute("data-wired", "true");
    view.sync(state);
    bar.querySelectorAll("input[data-layer]").forEach(function (box) {
      box.addEventListener("change", function () {
        var layer = box.getAttribute("data-layer");
        state.hide = state.hide.filter(function (x) { return x !== layer; });
        if (!box.checked) state.hide.push(layer);
        change();
      });
    });
    bar.querySelectorAll("input[data-view]").forEach(function (radio) {
      radio.addEventListener("change", function () {
        if (!radio.checked) return;
        state.view = radio.getAttribute("data-view");
        change();
      });
    });
    // another tab changed the view: follow it
    window.addEventListener("storage", function (event) {
      if (event.key !== view.KEY) return;
      state = view.load();
      view.apply(state);
      view.sync(state);
    });
  }

  function start() {
    document.querySelectorAll(".yl-toolbar").forEach(wire);
    // the theme's fixed labels, in the page's language (conv/sphinx_ext/output/locale.py)
    var labels = window.YL_ARIA_LABELS || {};
    document.querySelectorAll("[aria-label]").forEach(function (element) {
      var label = labels[element.getAttribute("aria-label")];
      if (label) element.setAttribute("aria-label", label);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
