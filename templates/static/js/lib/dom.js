// Tiny DOM helpers: build elements without innerHTML, so every text is escaped.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Copy a text field's value; it is selected first, so where the clipboard is refused the person
// can copy it by hand. Returns whether the clipboard took it.
export async function copyField(field) {
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    return true;
  } catch (e) {
    return false;
  }
}
