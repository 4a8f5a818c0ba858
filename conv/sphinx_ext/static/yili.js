/* The reader's toolbar of the 仪礼 edition (阅读工具栏).
 *
 * Shows or hides each commentary layer (注 疏 按 音义 目录) and switches between the diplomatic
 * view (底本, labelled 录入本（简体）: the seeds' simplified transcription, the witness's own forms)
 * and the normalized view (规范: 賔→宾, PUA resolved).
 * The choice is kept in localStorage ("yili.view") and applied as classes on <html>:
 *   yl-hide-<layer>   hides every .yl-note.yl-<layer>
 *   yl-normalized     shows the .yl-n form of each .yl-char instead of its .yl-w form
 * Without JavaScript nothing is hidden and the diplomatic view is shown.
 */
(function () {
  "use strict";

  var KEY = "yili.view";
  var LAYERS = [
    ["zhu", "注", "郑注"],
    ["shu", "疏", "贾疏"],
    ["an", "按", "按语"],
    ["yin", "音义", "音义"],
    ["mulu", "目录", "郑目录"],
  ];
  var VIEWS = [
    // the 底本 view shows the seeds' simplified transcription (录入本), which merged characters
    // the 文渊阁 copy keeps apart (着/著, 干/乾/幹): the label says so
    ["diplomatic", "录入本（简体）", "录入本字形：照录底本的简体录入本（异体、避讳缺笔字加标记；其简体字或合并文渊阁本有别之字，见校勘记“简体合并之字”）"],
    ["normalized", "规范", "规范字形：异体归并，私用区字校正"],
  ];

  function load() {
    var state = { hide: [], view: "diplomatic" };
    try {
      var saved = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      if (saved && Array.isArray(saved.hide)) {
        state.hide = saved.hide.filter(function (layer) {
          return LAYERS.some(function (l) { return l[0] === layer; });
        });
      }
      if (saved && saved.view === "normalized") state.view = "normalized";
    } catch (e) { /* storage unavailable or corrupt: defaults */ }
    return state;
  }

  function save(state) {
    try { window.localStorage.setItem(KEY, JSON.stringify(state)); } catch (e) { /* private mode */ }
  }

  function apply(state) {
    var classes = document.documentElement.classList;
    LAYERS.forEach(function (l) {
      classes.toggle("yl-hide-" + l[0], state.hide.indexOf(l[0]) >= 0);
    });
    classes.toggle("yl-normalized", state.view === "normalized");
  }

  var state = load();
  apply(state);

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text) node.textContent = text;
    return node;
  }

  function sync(bar) {
    bar.querySelectorAll("input[data-layer]").forEach(function (box) {
      box.checked = state.hide.indexOf(box.getAttribute("data-layer")) < 0;
    });
    bar.querySelectorAll("input[data-view]").forEach(function (radio) {
      radio.checked = radio.getAttribute("data-view") === state.view;
    });
  }

  function build() {
    if (!document.querySelector(".yl-passage, .yl-title, .yl-chaptertitle")) return;
    if (document.querySelector(".yl-toolbar")) return;
    var bar = element("div", { "class": "yl-toolbar", role: "toolbar", "aria-label": "阅读设置" });

    var layers = element("fieldset", { "class": "yl-toolbar-group yl-toolbar-layers" });
    layers.appendChild(element("legend", {}, "层次"));
    LAYERS.forEach(function (l) {
      if (!document.querySelector(".yl-note.yl-" + l[0])) return;
      var label = element("label", { "class": "yl-toggle", title: "显示或隐藏" + l[2] });
      var box = element("input", { type: "checkbox", "data-layer": l[0] });
      box.addEventListener("change", function () {
        state.hide = state.hide.filter(function (x) { return x !== l[0]; });
        if (!box.checked) state.hide.push(l[0]);
        apply(state);
        save(state);
      });
      label.appendChild(box);
      label.appendChild(element("span", { "class": "yl-swatch yl-swatch-" + l[0] }, l[1]));
      layers.appendChild(label);
    });
    bar.appendChild(layers);

    var views = element("fieldset", { "class": "yl-toolbar-group yl-toolbar-view" });
    views.appendChild(element("legend", {}, "字形"));
    VIEWS.forEach(function (v) {
      var label = element("label", { "class": "yl-toggle", title: v[2] });
      var radio = element("input", { type: "radio", name: "yl-view", value: v[0], "data-view": v[0] });
      radio.addEventListener("change", function () {
        if (!radio.checked) return;
        state.view = v[0];
        apply(state);
        save(state);
      });
      label.appendChild(radio);
      label.appendChild(element("span", {}, v[1]));
      views.appendChild(label);
    });
    bar.appendChild(views);

    sync(bar);
    var main = document.querySelector("article[role=main]") || document.querySelector("[role=main]") || document.body;
    main.insertBefore(bar, main.firstChild);

    // another tab changed the view: follow it
    window.addEventListener("storage", function (event) {
      if (event.key !== KEY) return;
      state = load();
      apply(state);
      sync(bar);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", build);
  } else {
    build();
  }
})();
