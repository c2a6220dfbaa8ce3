// Building the page from data without ever parsing user text as HTML.
// Every string child becomes a text node (textContent); attributes are set one by one.

const SVG_NS = "http://www.w3.org/2000/svg";

function append(node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(node, c);
    return;
  }
  if (child instanceof Node) {
    node.appendChild(child);
    return;
  }
  node.appendChild(document.createTextNode(String(child)));
}

function setProps(node, props) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "text") node.textContent = String(value);
    else if (key === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else if (key === "style") throw new Error("inline styles are not allowed (CSP); use classes or setVar()");
    else if (key === "value" || key === "checked" || key === "selected" || key === "disabled" || key === "hidden")
      node[key] = value;
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
}

/** h("button", {class: "big", on: {click}}, "Vote for ", name) */
export function h(tag, props, ...children) {
  const node = document.createElement(tag);
  setProps(node, props);
  append(node, children);
  return node;
}

/** The same for SVG elements. */
export function s(tag, props, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else if (key === "text") node.textContent = String(value);
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

/** A CSS custom property set through the CSSOM (allowed by the CSP, unlike style="..."). */
export function setVar(node, name, value) {
  node.style.setProperty(name, String(value));
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Replace the children of `root` by `next`, keeping focus, typed text and open <details>
 * of elements that carry the same data-key in both trees. */
export function swap(root, next) {
  const keep = new Map();
  for (const el of root.querySelectorAll("[data-key]")) {
    keep.set(el.dataset.key, {
      focused: el === document.activeElement,
      value: ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) ? el.value : null,
      open: el.tagName === "DETAILS" ? el.open : null,
      checked: el.type === "checkbox" || el.type === "radio" ? el.checked : null,
      start: el.selectionStart ?? null,
    });
  }
  const scroll = window.scrollY;
  clear(root);
  append(root, next);
  let focusTarget = null;
  for (const el of root.querySelectorAll("[data-key]")) {
    const old = keep.get(el.dataset.key);
    if (!old) continue;
    if (old.value !== null && el.dataset.keepValue !== "no" && el.type !== "checkbox" && el.type !== "radio") el.value = old.value;
    if (old.open !== null) el.open = old.open;
    if (old.checked !== null && el.dataset.keepValue !== "no") el.checked = old.checked;
    if (old.focused) focusTarget = el;
    if (old.focused && old.start !== null && typeof el.setSelectionRange === "function") {
      try { el.setSelectionRange(old.start, old.start); } catch { /* not a text field */ }
    }
  }
  if (focusTarget && !focusTarget.disabled) focusTarget.focus({ preventScroll: true });
  window.scrollTo(0, scroll);
}

export function visuallyHidden(text) {
  return h("span", { class: "visually-hidden" }, text);
}
