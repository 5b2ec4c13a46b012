// Small DOM helpers: building elements node by node (names and memos are text, never parsed as
// markup), and finding the page's fixed elements by id.

/**
 * @typedef {object} Props
 * @property {string} [class]
 * @property {string} [text]
 * @property {Record<string, string>} [data] data-* attributes
 * @property {Record<string, string>} [attrs]
 * @property {Record<string, (event: Event) => void>} [on]
 */

/**
 * A new element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {Array<Node | string | null | undefined | false>} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  for (const [k, v] of Object.entries(props.data ?? {})) el.dataset[k] = v;
  for (const [k, v] of Object.entries(props.attrs ?? {})) el.setAttribute(k, v);
  for (const [k, v] of Object.entries(props.on ?? {})) el.addEventListener(k, v);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/**
 * The page's element with this id.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} [type] checked when given
 * @returns {T}
 */
export function byId(id, type) {
  const el = document.getElementById(id);
  if (!el || (type && !(el instanceof type))) throw new Error(`the page lacks #${id}`);
  return /** @type {T} */ (el);
}

/**
 * A view's fixed elements, each found as `byId` finds it (a missing one throws), by a name that
 * gives its id: `prefix` and the name in kebab case, so `elements('station-', ['memoCount'])` is
 * `{memoCount: #station-memo-count}`. `types` names the elements that must be of a type, as
 * `byId`'s `type`: `elements('station-', ['name'], {wiki: HTMLAnchorElement})`.
 * @template {string} K
 * @template {Record<string, new () => HTMLElement>} [T={}]
 * @param {string} prefix
 * @param {K[]} names
 * @param {T} [types]
 * @returns {Record<K, HTMLElement> & {[N in keyof T]: InstanceType<T[N]>}}
 */
export function elements(prefix, names, types) {
  /** @param {string} name */
  const idOf = (name) => prefix + name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const untyped = names.map((name) => [name, byId(idOf(name))]);
  const typed = Object.entries(types ?? {}).map(([name, type]) => [name, byId(idOf(name), type)]);
  return /** @type {Record<K, HTMLElement> & {[N in keyof T]: InstanceType<T[N]>}} */ (Object.fromEntries([...untyped, ...typed]));
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {Array<Node | string>} children
 */
export function replaceChildren(el, children) {
  el.replaceChildren(...children);
}

/**
 * Offers text as a file download (no network: a blob URL).
 * @param {string} name @param {string} text @param {string} type
 */
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { attrs: { href: url, download: name } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
