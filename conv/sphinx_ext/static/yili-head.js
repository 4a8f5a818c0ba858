/* The reader's saved view, applied before the first paint (阅读设置：首次绘制前生效).
 *
 * conv/sphinx_ext/output/toolbar.py inlines this script in <head> (no request, nothing waits for
 * it), with __LAYERS__ replaced by the commentary layers' keys. It reads the choice kept in
 * localStorage ("yili.view": {hide: [...layers], view: "diplomatic"|"normalized"|"traditional"}) and sets, on
 * <html>, the classes the styles read:
 *   yl-js            scripts run: the toolbar is shown (without them it is hidden, nothing hides);
 *                    furo's "no-js" is removed at the same time
 *   yl-hide-<layer>  hides every .yl-note.yl-<layer>
 *   yl-normalized    shows the reading form (.yl-n) of each .yl-char
 *   yl-traditional   shows the 文渊阁 forms (.yl-t: a .yl-char-t's, a seed's run .yl-s → .yl-t)
 * so hidden notes never show and the page never reflows after it is drawn. yili.js wires the
 * toolbar to the same functions (window.YL_VIEW).
 */
(function () {
  "use strict";
  var KEY = "yili.view";
  var LAYERS = __LAYERS__;
  var root = document.documentElement;

  function load() {
    var state = { hide: [], view: "diplomatic" };
    try {
      var saved = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      if (saved && Array.isArray(saved.hide)) {
        state.hide = saved.hide.filter(function (layer) { return LAYERS.indexOf(layer) >= 0; });
      }
      if (saved && (saved.view === "normalized" || saved.view === "traditional")) state.view = saved.view;
    } catch (e) { /* storage unavailable or corrupt: the defaults */ }
    return state;
  }

  function save(state) {
    try { window.localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) { /* private mode */ }
  }

  function apply(state) {
    LAYERS.forEach(function (layer) {
      root.classList.toggle("yl-hide-" + layer, state.hide.indexOf(layer) >= 0);
    });
    root.classList.toggle("yl-normalized", state.view === "normalized");
    root.classList.toggle("yl-traditional", state.view === "traditional");
  }

  /* the toolbar's controls show ``state`` (called inline right after the toolbar's markup, so
     they are right when first drawn, and by yili.js) */
  function sync(state) {
    document.querySelectorAll(".yl-toolbar input[data-layer]").forEach(function (box) {
      box.checked = state.hide.indexOf(box.getAttribute("data-layer")) < 0;
    });
    var radios = document.querySelectorAll(".yl-toolbar input[data-view]");
    var shown = Array.prototype.some.call(radios, function (radio) {
      return radio.getAttribute("data-view") === state.view;
    });
    radios.forEach(function (radio) {  // a page without the 繁体 view shows the 底本 forms
      radio.checked = radio.getAttribute("data-view") === (shown ? state.view : "diplomatic");
    });
  }

  root.classList.add("yl-js");
  // furo removes "no-js" from its script at the end of <body>, after the first paint: its theme
  // toggle then appears and the header reflows. Scripts do run: say so now.
  root.classList.remove("no-js");
  apply(load());
  window.YL_VIEW = { KEY: KEY, LAYERS: LAYERS, load: load, save: save, apply: apply, sync: sync };
})();
