/* The tip of an 音义 gloss (音义提示), one for the page.
 *
 * Each gloss is a <span class="yl-gloss" role="button" tabindex="0" data-…> (conv/sphinx_ext/
 * text/glosses.py). Hovering it with a mouse, focusing it with the keyboard or tapping it opens
 * the tip: the gloss as printed, its 反切 or 直音, its 《广韵》 position in words (肿韵 · 见母 ·
 * 上声) with the modern notation as a detail (見三C鍾上), whether it is the character's own
 * reading, and a link to its row in the 音义索引.
 *
 * The tip is the browser's own popover (popover="auto", the Popover API): it lives in the top
 * layer (no container clips it), and Escape or a tap elsewhere closes it (light dismiss) without
 * code here. This script only fills it and places it under (or above) the gloss, inside the
 * window: at most the window's width less a margin, moved left where the gloss is near the right
 * edge. Where a browser has no popover, the same element is shown and hidden by hand.
 */
(function () {
  "use strict";

  var MARGIN = 8;
  var KINDS = { fanqie: "反切", zhiyin: "直音", ruzi: "如字", tone: "声调", other: "音义" };
  var STATUS = {
    matches: ["合于本字之音", "yl-tip-ok"],
    "other reading": ["非本字之音（此字另读，或为假借、破读）", "yl-tip-other"],
    unresolved: ["未能推定", "yl-tip-unknown"],
  };
  var popover = typeof HTMLElement !== "undefined" && HTMLElement.prototype.hasOwnProperty("popover");
  var tip = null;
  var current = null;
  var closing = null;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function make() {
    tip = element("div", "yl-tip");
    tip.id = "yl-tip";
    tip.setAttribute("role", "dialog");
    tip.setAttribute("aria-label", "音义");
    if (popover) {
      tip.setAttribute("popover", "auto");
      tip.addEventListener("toggle", function (event) {
        if (event.newState === "closed") forget();
      });
    } else {
      tip.hidden = true;
    }
    tip.addEventListener("pointerenter", function () { clearTimeout(closing); });
    tip.addEventListener("pointerleave", function (event) {
      if (event.pointerType === "mouse") closeSoon();
    });
    document.body.appendChild(tip);
  }

  function data(gloss, name) {
    return gloss.getAttribute("data-" + name) || "";
  }

  function line(label, text, className) {
    var row = element("p", "yl-tip-line" + (className ? " " + className : ""));
    if (label) row.appendChild(element("span", "yl-tip-label", label));
    row.appendChild(document.createTextNode(text));
    return row;
  }

  function fill(gloss) {
    tip.textContent = "";
    tip.appendChild(element("p", "yl-tip-head", data(gloss, "printed") || gloss.textContent));
    var kind = data(gloss, "kind");
    var sound = "";
    if (kind === "fanqie" && data(gloss, "upper")) sound = data(gloss, "upper") + data(gloss, "lower") + "反";
    else if (kind === "zhiyin" && data(gloss, "sound")) sound = "音" + data(gloss, "sound");
    else if (kind === "ruzi") sound = "读如本字";
    else if (data(gloss, "tone")) { sound = data(gloss, "tone") + "声"; kind = "tone"; }
    if (data(gloss, "second")) sound += "（" + data(gloss, "char") + "之又音）";
    else if (data(gloss, "before")) sound += "（" + data(gloss, "char") + "之音，字在注前）";
    if (sound) tip.appendChild(line(KINDS[kind] || "音义", sound));
    var position = data(gloss, "position");
    if (position) {
      var words = data(gloss, "words");
      tip.appendChild(line("广韵", words || position));
      if (words) tip.appendChild(line("音韵地位", position.split(" / ").join("；又可为 "), "yl-tip-detail"));
    }
    var status = STATUS[data(gloss, "status")];
    if (status) tip.appendChild(line("", status[0], "yl-tip-status " + status[1]));
    if (data(gloss, "why")) tip.appendChild(line("", data(gloss, "why"), "yl-tip-detail"));  // 行去声二读…
    if (data(gloss, "rule")) tip.appendChild(line("门法", data(gloss, "rule"), "yl-tip-detail"));  // 之韵无唇音…
    if (data(gloss, "filed")) tip.appendChild(line("字形", "《广韵》收于" + data(gloss, "filed"), "yl-tip-detail"));  // 朐 → 胊
    if (data(gloss, "also")) {
      tip.appendChild(line("又音", data(gloss, "also") + (data(gloss, "also-position") ? "（" + data(gloss, "also-position") + "）" : "")));
    }
    var href = data(gloss, "entry");
    if (href) {
      var more = element("p", "yl-tip-line yl-tip-more");
      var link = element("a", "", "见音义索引");
      link.href = href;
      more.appendChild(link);
      tip.appendChild(more);
    }
  }

  function place() {
    if (!current) return;
    var rect = current.getBoundingClientRect();
    var width = document.documentElement.clientWidth;
    var height = window.innerHeight;
    tip.style.maxWidth = Math.max(0, width - 2 * MARGIN) + "px";
    var box = tip.getBoundingClientRect();
    var left = Math.min(Math.max(MARGIN, rect.left), width - box.width - MARGIN);
    var top = rect.bottom + 4;
    if (top + box.height > height - MARGIN && rect.top - box.height - 4 >= MARGIN) top = rect.top - box.height - 4;
    tip.style.left = Math.max(MARGIN, left) + "px";
    tip.style.top = Math.max(MARGIN, top) + "px";
  }

  function open(gloss) {
    clearTimeout(closing);
    if (!tip) make();
    if (current && current !== gloss) current.setAttribute("aria-expanded", "false");
    current = gloss;
    fill(gloss);
    gloss.setAttribute("aria-expanded", "true");
    gloss.setAttribute("aria-controls", tip.id);
    if (popover) {
      if (!tip.matches(":popover-open")) {
        try { tip.showPopover({ source: gloss }); } catch (e) { tip.showPopover(); }
      }
    } else {
      tip.hidden = false;
    }
    place();
  }

  function forget() {
    if (current) current.setAttribute("aria-expanded", "false");
    current = null;
  }

  function close() {
    clearTimeout(closing);
    if (!tip) return;
    if (popover) {
      if (tip.matches(":popover-open")) tip.hidePopover();
    } else {
      tip.hidden = true;
    }
    forget();
  }

  function closeSoon() {
    clearTimeout(closing);
    closing = setTimeout(close, 250);
  }

  function glossOf(target) {
    return target && target.closest ? target.closest(".yl-gloss") : null;
  }

  document.addEventListener("pointerover", function (event) {
    var gloss = glossOf(event.target);
    if (event.pointerType === "mouse" && gloss && gloss !== current) open(gloss);
  });
  document.addEventListener("pointerout", function (event) {
    var gloss = glossOf(event.target);
    if (event.pointerType !== "mouse" || !gloss || gloss !== current) return;
    if (event.relatedTarget && (gloss.contains(event.relatedTarget) || (tip && tip.contains(event.relatedTarget)))) return;
    closeSoon();
  });
  document.addEventListener("click", function (event) {
    var gloss = glossOf(event.target);
    if (gloss) {
      open(gloss);  // a tap (or a click): the popover's light dismiss closed the last one
    } else if (!popover && tip && !tip.contains(event.target)) {
      close();
    }
  });
  document.addEventListener("focusin", function (event) {
    var gloss = glossOf(event.target);
    if (gloss && gloss !== current) open(gloss);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && current) {
      var gloss = current;
      close();
      gloss.focus();
    } else if ((event.key === "Enter" || event.key === " ") && glossOf(event.target)) {
      event.preventDefault();
      open(glossOf(event.target));
    }
  });
  window.addEventListener("scroll", place, { passive: true });
  window.addEventListener("resize", place);
})();
