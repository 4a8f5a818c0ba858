/* The tip of an 音义 gloss (音义提示) and of an apparatus mark (校记提示), one for the page.
 *
 * Each gloss is a <span class="yl-gloss" role="button" tabindex="0" data-…> (conv/sphinx_ext/
 * text/glosses.py). Hovering it with a mouse, focusing it with the keyboard or tapping it opens
 * the tip: the gloss as printed, its 反切 or 直音, its 《广韵》 position in words (肿韵 · 见母 ·
 * 上声) with the modern notation as a detail (見三C鍾上), whether it is the character's own
 * reading, and a link to its row in the 音义索引.
 *
 * An apparatus mark is a link to its entry in the 校勘记 (<sup class="yl-appmark"><a href title>,
 * conv/sphinx_ext/backmatter/apparatus.py), its title the entry. Hovering it or focusing it with
 * the keyboard opens the tip with the entry, and a click or Enter follows the link as ever; a tap
 * opens the tip instead (the 校勘记 is a long page to leave the chapter for), whose link goes on.
 * The title moves into the tip (data-entry-text), so that no plain tooltip comes over it. An emended
 * character (<a class="yl-emend" data-printed data-adopted title>, conv/sphinx_ext/text/witness_forms.py:
 * 据改, 当作) is a link to its entry too, and behaves as a mark; its tip's head is printed → read.
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

  function isMark(trigger) {
    return trigger.tagName === "A";
  }

  function fillMark(mark) {
    var entry = mark.getAttribute("title");
    if (entry !== null) {  // once: the entry leaves the title for the tip
      mark.setAttribute("data-entry-text", entry);
      mark.removeAttribute("title");
    }
    entry = data(mark, "entry-text");
    var emended = mark.classList.contains("yl-emend");
    var label = emended ? (data(mark, "printed") || "脱") + " → " + data(mark, "adopted") : mark.textContent;
    tip.textContent = "";
    tip.setAttribute("aria-label", "校勘记");
    tip.appendChild(element("p", "yl-tip-head", label));
    var cut = entry.indexOf("\u3000");  // 校1　校改：… (the label, then the entry)
    tip.appendChild(line("", cut >= 0 && entry.slice(0, cut) === label ? entry.slice(cut + 1) : entry));
    var more = element("p", "yl-tip-line yl-tip-more");
    var link = element("a", "", "见校勘记");
    link.href = mark.href;
    more.appendChild(link);
    tip.appendChild(more);
  }

  function fill(trigger) {
    if (isMark(trigger)) fillMark(trigger);
    else fillGloss(trigger);
  }

  function fillGloss(gloss) {
    tip.textContent = "";
    tip.setAttribute("aria-label", "音义");
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

  function open(trigger) {
    clearTimeout(closing);
    if (!tip) make();
    if (current && current !== trigger) current.setAttribute("aria-expanded", "false");
    current = trigger;
    fill(trigger);
    trigger.setAttribute("aria-expanded", "true");
    trigger.setAttribute("aria-controls", tip.id);
    if (popover) {
      if (!tip.matches(":popover-open")) {
        try { tip.showPopover({ source: trigger }); } catch (e) { tip.showPopover(); }
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

  function triggerOf(target) {  // a gloss, an apparatus mark's link, an emended character's link
    return target && target.closest ? target.closest(".yl-gloss, .yl-appmark a, a.yl-emend") : null;
  }

  document.addEventListener("pointerover", function (event) {
    var trigger = triggerOf(event.target);
    if (event.pointerType === "mouse" && trigger && trigger !== current) open(trigger);
  });
  document.addEventListener("pointerout", function (event) {
    var trigger = triggerOf(event.target);
    if (event.pointerType !== "mouse" || !trigger || trigger !== current) return;
    if (event.relatedTarget && (trigger.contains(event.relatedTarget) || (tip && tip.contains(event.relatedTarget)))) return;
    closeSoon();
  });
  document.addEventListener("click", function (event) {
    var trigger = triggerOf(event.target);
    if (trigger && isMark(trigger)) {
      if (trigger === current) return;  // opened by the mouse or the keyboard: the link is followed
      event.preventDefault();  // a tap: the entry in the tip, whose link goes on
      open(trigger);
    } else if (trigger) {
      open(trigger);  // a tap (or a click): the popover's light dismiss closed the last one
    } else if (!popover && tip && !tip.contains(event.target)) {
      close();
    }
  });
  document.addEventListener("focusin", function (event) {
    var trigger = triggerOf(event.target);
    // a mark focused by a tap is opened by its click (which then stays on the page), by the keyboard here
    if (trigger && trigger !== current && (!isMark(trigger) || trigger.matches(":focus-visible"))) open(trigger);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && current) {
      var opener = current;
      close();
      opener.focus();
      return;
    }
    var trigger = triggerOf(event.target);
    if ((event.key === "Enter" || event.key === " ") && trigger && !isMark(trigger)) {  // a mark's link: followed
      event.preventDefault();
      open(trigger);
    }
  });
  window.addEventListener("scroll", place, { passive: true });
  window.addEventListener("resize", place);
})();
