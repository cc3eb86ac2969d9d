/* sleuth companion: the Share button. The URLs a phone on the same network opens (this page, with the token),
   each with its QR code, drawn by the server (GET /api/share): nothing comes from another host. */
"use strict";
(() => {
  const header = document.querySelector("header.top");
  if (!header) return;
  const node = (tag, attrs, text) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    if (text) n.textContent = text;
    return n;
  };
  const button = node("button", {type: "button", id: "share", title: "open this page on a phone on the same network",
                                 "aria-label": "Share", class: "share",
                                 style: "margin-left:auto;background:#34405a;border:1px solid #56627d;border-radius:6px"},
                      "⇪");
  button.append(node("span", {class: "word"}, " Share"));  /* the word is hidden on a phone (app.css) */
  const box = node("dialog", {id: "share-box", "aria-label": "open on a phone",
                              style: "max-width:min(92vw,28rem);border-radius:10px;padding:1rem"});
  async function open() {
    box.textContent = "";
    let data;
    try {
      const r = await fetch(`/api/share?path=${encodeURIComponent(location.pathname)}`);
      data = await r.json();
      if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
    } catch (e) { data = {urls: [], note: `the companion did not answer (${e.message})`}; }
    box.append(node("h2", {style: "margin-top:0"}, "Open on a phone"));
    if (data.note) box.append(node("p", {}, data.note));
    else box.append(node("p", {}, "On the same network (Wi-Fi), scan the code or type the address:"));
    for (const u of data.urls) {
      const fig = node("figure", {style: "margin:.5rem 0;text-align:center"});
      fig.append(node("img", {src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(u.svg), alt: `QR code of ${u.url}`,
                              style: "width:min(70vw,16rem);height:auto;image-rendering:pixelated;background:#fff"}));
      fig.append(node("figcaption", {style: "word-break:break-all;font-size:.9rem"}, u.url));
      box.append(fig);
    }
    const close = node("button", {type: "button", class: "secondary"}, "Close");
    close.addEventListener("click", () => box.close());
    box.append(close);
    box.showModal();
  }
  button.addEventListener("click", open);
  header.append(button);
  document.body.append(box);
})();
