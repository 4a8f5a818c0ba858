/* The passage permalink of the 仪礼 edition (引): copy a citation of the passage.
 *
 * Each passage ends with <a class="yl-permalink" href="#ANCHOR" data-anchor data-cite>
 * (conv/sphinx_ext/permalink.py). A click, or Enter on the focused link, copies
 *     《仪礼郑注句读·乡射礼》“司马出于下射之南还其后降…”，judou-xiangshe-12 URL#judou-xiangshe-12
 * to the clipboard and shows it in a box under the link. Where the clipboard API is missing
 * (an insecure context, an old browser) or refused, the box shows the citation selected in a
 * text field to copy by hand. Escape, the × button or a click elsewhere closes the box.
 * Without JavaScript the link is an ordinary permalink to the passage.
 */
(function () {
  "use strict";

  var box = null;
  var opener = null;

  function pageUrl() {
    var canonical = document.querySelector('link[rel="canonical"]');
    var url = canonical && canonical.href ? canonical.href : window.location.href;
    return url.split("#")[0];
  }

  function citation(link) {
    var anchor = link.getAttribute("data-anchor");
    return link.getAttribute("data-cite") + " " + pageUrl() + "#" + anchor;
  }

  function close(restoreFocus) {
    if (!box) return;
    box.parentNode.removeChild(box);
    box = null;
    if (restoreFocus && opener) opener.focus();
    opener = null;
  }

  function show(link, text, copied) {
    close(false);
    opener = link;
    box = document.createElement("div");
    box.className = "yl-cite-box";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "引文");

    var shut = document.createElement("button");
    shut.type = "button";
    shut.className = "yl-cite-box-close";
    shut.setAttribute("aria-label", "关闭");
    shut.textContent = "×";
    shut.addEventListener("click", function () { close(true); });

    var message = document.createElement("span");
    message.className = "yl-cite-box-message";
    message.setAttribute("role", "status");
    message.textContent = copied ? "已复制引文" : "请复制引文（Ctrl+C 或 ⌘C）";

    var field = document.createElement("textarea");
    field.className = "yl-cite-box-text";
    field.readOnly = true;
    field.rows = 3;
    field.value = text;
    field.setAttribute("aria-label", "引文");

    box.appendChild(shut);
    box.appendChild(message);
    box.appendChild(field);
    box.setAttribute("data-copied", copied ? "true" : "false");
    document.body.appendChild(box);

    var rect = link.getBoundingClientRect();
    var width = box.offsetWidth;
    var left = Math.max(8, Math.min(rect.left, document.documentElement.clientWidth - width - 8));
    box.style.left = left + window.scrollX + "px";
    box.style.top = rect.bottom + window.scrollY + 4 + "px";

    if (!copied) {
      field.focus();
      field.select();
      try {
        if (document.execCommand && document.execCommand("copy")) {
          message.textContent = "已复制引文";
          box.setAttribute("data-copied", "true");
        }
      } catch (e) { /* copying by hand */ }
    }
  }

  function copy(link) {
    var text = citation(link);
    var clipboard = window.navigator.clipboard;
    if (clipboard && typeof clipboard.writeText === "function") {
      clipboard.writeText(text).then(
        function () { show(link, text, true); },
        function () { show(link, text, false); }
      );
    } else {
      show(link, text, false);
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    var link = target && target.closest ? target.closest("a.yl-permalink") : null;
    if (link) {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      copy(link);
      return;
    }
    if (box && !box.contains(target)) close(false);
  });

  document.addEventListener("keydown", function (event) {
    if (box && event.key === "Escape") close(true);
  });
})();
