// <aidocs-search index="/_search/"></aidocs-search>: a search button that opens a Cmd/Ctrl-K modal.
//
// Page-load cost is this file alone: the engine (search.js, its glue and the wasm module) is imported on
// first open (or on hover/focus of the button, to hide the latency). Results are grouped by kind, each page
// with up to three section links, excerpts with the query's words in <mark>, API pages with a method
// badge, their path and a "Copy curl" action. All page text goes through textContent or escapeHtml, every
// result link through safeHref (http(s), or relative on the page's origin; others are listed as text) and
// every value in a copied curl command through shellQuote.
// Attributes: index (URL of the index directory), placeholder, api-base (for curl), k, lang (the reader's
// language; default the page's <html lang>: a multilingual index searches that language's pages), mode: `auto` (the
// default) ranks lexically on every keystroke, then, once typing pauses (`hybrid-pause`, 400 ms), hybrid (BM25 + the
// index's static query encoder) where the index has vectors: a keystroke costs lexical bytes (a hybrid
// search fetches about twice as much) and what the reader stops at is ranked semantically. `lexical`,
// `hybrid` and `vector` use that mode for every search (hybrid and vector rank lexically on an index
// without vectors). Misspelled words are corrected ("Showing results for …" above the list). The list
// never changes under a reader who has started choosing with the arrow keys. `version`: the docs version
// the page belongs to (only its pages, and pages in no version, are searched). `facets`: a row of filter
// chips under the input, from the query's facet counts: the kinds, the docs versions, the commonest
// navigation groups (one at a time each) and the commonest tags (all of the pressed ones), each with
// how many matching pages it has. `copy-context`: a "Copy as context" action puts the query's evidence
// for an assistant on the clipboard (Markdown with numbered citations, `context-tokens`, 2,000), from
// `context-endpoint` (the handler's `/context`) when set, else selected in the page (the full module,
// about 92 KB more, loads instead of the lean one).
// Theme: --aidocs-accent, --aidocs-bg, --aidocs-fg, --aidocs-muted, --aidocs-border, --aidocs-mark,
// --aidocs-radius, --aidocs-font (light and dark defaults follow prefers-color-scheme).

const GROUPS = [
  ['docs', 'Guides'],
  ['api', 'API reference'],
  ['custom', 'Other'],
];
const DEBOUNCE_MS = 60;
/** In `auto` mode, the default pause in typing after which the query is ranked hybrid (`hybrid-pause`). */
const HYBRID_PAUSE_MS = 400;

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** Query words, lowercased, for highlighting (3+ letters or digits; stems matched by prefix). */
function queryWords(q) {
  return [...new Set(q.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/[\p{L}\p{N}]{2,}/gu) ?? [])];
}

/** `text` HTML-escaped with words that share a stem-like prefix with a query word wrapped in <mark>. */
export function highlight(text, q) {
  const words = queryWords(q);
  if (!words.length) return escapeHtml(text);
  return String(text)
    .split(/([\p{L}\p{N}]+)/u)
    .map((part, i) => {
      if (i % 2 === 0) return escapeHtml(part);
      const w = part.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      const hit = words.some((q) => {
        const stem = q.length > 4 ? q.slice(0, Math.max(4, q.length - 2)) : q;
        return w === q || (w.startsWith(stem) && w.length <= q.length + 4);
      });
      return hit ? `<mark>${escapeHtml(part)}</mark>` : escapeHtml(part);
    })
    .join('');
}

/**
 * Issue 18: `url` as a link target, or null where it must not be one. Only http(s) URLs qualify, and a
 * URL without a scheme of its own (`/path`, `#anchor`, `?q`, `page`, but also `//host` or `\\host`)
 * only where it stays on the origin of `base` (default: the page's base URL, which `<a href>` and
 * `location.assign` resolve against). Parsed with the browser's URL parser, so whitespace, control
 * characters and mixed case in `javascript:`, `data:` or `vbscript:` change nothing. Returns `url`
 * itself: the browser parses the href exactly as checked here.
 */
export function safeHref(url, base = globalThis.document?.baseURI) {
  if (typeof url !== 'string' || !url.trim()) return null;
  try {
    const u = new URL(url, base);
    if (!/^https?:$/.test(u.protocol)) return null;
    return /^[a-z][a-z\d+.-]*:/i.test(url) || u.origin === new URL(base).origin ? url : null;
  } catch {
    return null;
  }
}

/** `s` as one POSIX shell word: single-quoted (nothing in it is expanded), `'` as `'\''`. */
export function shellQuote(s) {
  return `'${String(s).replace(/'/g, "'\\''")}'`;
}

/**
 * A curl command for an API page, safe to paste into a shell: the method (an HTTP token, else left
 * out) and the URL are single-quoted words, and control characters in the URL are percent-encoded (a
 * terminal could act on them while they are pasted). Only `$API_TOKEN` in the Authorization header is
 * left for the shell to expand.
 */
export function curlCommand(api, base) {
  const url = `${String(base || 'https://api.example.com').replace(/\/+$/, '')}${api.path}`.replace(/[\0-\x1f\x7f-\x9f]/g, encodeURIComponent);
  const method = String(api.method).toUpperCase();
  const token = /^[!#$%&'*+.^_`|~\w-]+$/.test(method);
  const x = !token ? '' : /^[A-Z]+$/.test(method) ? `-X ${method} ` : `-X ${shellQuote(method)} `;
  const body = ['POST', 'PUT', 'PATCH'].includes(method) ? ` \\\n  -H 'Content-Type: application/json' \\\n  -d '{}'` : '';
  return `curl ${x}${shellQuote(url)} \\\n  -H "Authorization: Bearer $API_TOKEN"${body}`;
}

/** Where an option leads: its href if it has one and it is a safe link, else null. */
const linkOf = (a) => (a.hasAttribute('href') ? safeHref(a.href) : null);

const STYLE = `
:host { --a: var(--aidocs-accent, #2563eb); --bg: var(--aidocs-bg, #fff); --fg: var(--aidocs-fg, #111827);
  --mu: var(--aidocs-muted, #6b7280); --bd: var(--aidocs-border, #e5e7eb); --mk: var(--aidocs-mark, #fde68a);
  --r: var(--aidocs-radius, 10px); font-family: var(--aidocs-font, system-ui, sans-serif); }
@media (prefers-color-scheme: dark) { :host { --bg: var(--aidocs-bg, #111827); --fg: var(--aidocs-fg, #f3f4f6);
  --mu: var(--aidocs-muted, #9ca3af); --bd: var(--aidocs-border, #374151); --mk: var(--aidocs-mark, #854d0e); } }
button.open { display: flex; gap: .5rem; align-items: center; width: 100%; padding: .45rem .7rem; border: 1px solid var(--bd);
  border-radius: var(--r); background: var(--bg); color: var(--mu); cursor: pointer; font: inherit; }
kbd { margin-left: auto; font: .75rem ui-monospace, monospace; border: 1px solid var(--bd); border-radius: 4px; padding: 0 .3rem; }
.backdrop { position: fixed; inset: 0; background: rgb(0 0 0 / .45); display: none; z-index: 2147483000; }
.backdrop.on { display: block; }
.dialog { position: fixed; left: 50%; top: 8vh; transform: translateX(-50%); width: min(680px, 94vw); max-height: 80vh;
  display: flex; flex-direction: column; background: var(--bg); color: var(--fg); border: 1px solid var(--bd);
  border-radius: var(--r); box-shadow: 0 20px 50px rgb(0 0 0 / .3); overflow: hidden; }
input { font: inherit; font-size: 1.05rem; padding: .9rem 1rem; border: 0; border-bottom: 1px solid var(--bd);
  background: transparent; color: var(--fg); outline: none; }
.status { padding: .6rem 1rem; color: var(--mu); font-size: .9rem; }
.status:empty { display: none; }
.status.error { color: #dc2626; }
ul { list-style: none; margin: 0; padding: 0 0 .5rem; overflow: auto; }
li.group { padding: .7rem 1rem .3rem; font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; color: var(--mu); }
a.opt { display: block; padding: .5rem 1rem; color: inherit; text-decoration: none; border-left: 3px solid transparent; }
a.opt.section { padding-left: 2rem; font-size: .92rem; }
a.opt[aria-disabled="true"] { opacity: .6; }
a.opt[aria-selected="true"] { background: color-mix(in srgb, var(--a) 12%, transparent); border-left-color: var(--a); }
.title { font-weight: 600; }
.crumb, .excerpt, .path { color: var(--mu); font-size: .85rem; }
.excerpt { display: block; margin-top: .15rem; overflow: hidden; text-overflow: ellipsis; display: -webkit-box;
  -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
mark { background: var(--mk); color: inherit; border-radius: 2px; }
.badge { display: inline-block; min-width: 3.2em; text-align: center; font: 600 .7rem ui-monospace, monospace;
  border-radius: 4px; padding: .1rem .3rem; margin-right: .4rem; color: #fff; background: #6b7280; }
.badge.get { background: #059669; } .badge.post { background: #2563eb; } .badge.put, .badge.patch { background: #d97706; }
.badge.delete { background: #dc2626; }
.row { display: flex; gap: .5rem; align-items: center; }
button.curl, button.ctx { margin-left: auto; font: .75rem inherit; border: 1px solid var(--bd); background: var(--bg); color: var(--fg);
  border-radius: 6px; padding: .15rem .45rem; cursor: pointer; }
.note { display: flex; padding: .4rem 1rem; font-size: .8rem; color: var(--mu); border-top: 1px solid var(--bd); }
.facets { display: flex; flex-wrap: wrap; gap: .35rem; padding: .5rem 1rem 0; }
.facets:empty { display: none; }
button.chip { font: .78rem inherit; border: 1px solid var(--bd); background: var(--bg); color: var(--fg);
  border-radius: 999px; padding: .15rem .6rem; cursor: pointer; }
button.chip[aria-pressed="true"] { background: var(--a); border-color: var(--a); color: #fff; }
button.chip span { color: inherit; opacity: .7; margin-left: .3rem; }
`;
/** Tags and groups offered as chips: the commonest among the matches. */
const TAG_CHIPS = 6;
const GROUP_CHIPS = 4;

export class AidocsSearchElement extends HTMLElement {
  #index = null;
  #opening = null;
  #seq = 0;
  #timer = 0;
  #upgrade = 0;
  #shown = '';
  /** Set once the reader moves the selection in the current list: an upgrade then leaves the list be. */
  #choosing = false;
  #options = [];
  #active = -1;
  #lastFocus = null;
  /**
   * With the `facets` attribute: the kind, group and version chips pressed (null: every one; one at
   * a time each) and the tag chips pressed (all apply).
   */
  #kind = null;
  #group = null;
  #version = null;
  #tags = new Set();

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const mac = /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');
    root.innerHTML = `<style>${STYLE}</style>
<button class="open" part="button" type="button" aria-haspopup="dialog"><svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/></svg>
<span class="label"></span><kbd>${mac ? '⌘' : 'Ctrl'} K</kbd></button>
<div class="backdrop" part="backdrop"><div class="dialog" role="dialog" aria-modal="true" aria-label="Search documentation">
<input type="search" role="combobox" aria-expanded="false" aria-autocomplete="list" aria-controls="listbox"
  autocomplete="off" spellcheck="false" enterkeyhint="go">
<div class="facets" role="toolbar" aria-label="Filters"></div>
<div class="status" role="status" aria-live="polite"></div>
<ul id="listbox" role="listbox" aria-label="Search results"></ul>
<div class="note">↑↓ to move · Enter to open · Esc to close<button class="ctx" type="button" hidden>Copy as context</button></div></div></div>`;
    this.$ = (s) => root.querySelector(s);
    this.$('.label').textContent = this.placeholder;
    this.$('input').placeholder = this.placeholder;
    this.$('button.open').addEventListener('click', () => this.open());
    for (const ev of ['pointerenter', 'focus']) this.$('button.open').addEventListener(ev, () => this.#engine().catch(() => {}), { once: true });
    this.$('.backdrop').addEventListener('click', (e) => e.target === e.currentTarget && this.close());
    this.$('input').addEventListener('input', () => this.#schedule());
    this.$('input').addEventListener('keydown', (e) => this.#onKey(e));
    this.$('#listbox').addEventListener('click', (e) => this.#onClick(e));
    this.$('.facets').addEventListener('click', (e) => this.#onChip(e));
    this.$('button.ctx').addEventListener('click', () => this.#copyContext());
    this.onGlobalKey = (e) => {
      const typing = e.target instanceof HTMLElement && (e.target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName));
      if ((e.key === 'k' || e.key === 'K') && (e.metaKey || e.ctrlKey)) {
        e.preventDefault();
        this.isOpen ? this.close() : this.open();
      } else if (e.key === '/' && !typing && !this.isOpen) {
        e.preventDefault();
        this.open();
      }
    };
  }

  get placeholder() {
    return this.getAttribute('placeholder') ?? 'Search docs';
  }
  get isOpen() {
    return this.$('.backdrop').classList.contains('on');
  }

  connectedCallback() {
    document.addEventListener('keydown', this.onGlobalKey);
  }
  disconnectedCallback() {
    document.removeEventListener('keydown', this.onGlobalKey);
  }

  /** Loads the engine and opens the index once; concurrent callers share the promise. */
  #engine() {
    this.#opening ??= import('./search.js')
      .then(({ openIndex }) =>
        openIndex(this.getAttribute('index') ?? '/_search/', {
          language: this.#language(),
          // "Copy as context" without a server selects evidence here: the full module.
          evidence: this.hasAttribute('copy-context') && !this.getAttribute('context-endpoint'),
        }),
      )
      .then((index) => (this.#index = index))
      .catch((e) => {
        this.#opening = null;
        throw e;
      });
    return this.#opening;
  }

  open() {
    this.#lastFocus = document.activeElement;
    this.$('.backdrop').classList.add('on');
    const input = this.$('input');
    input.focus();
    input.select();
    this.#engine().catch((e) => this.#status(`Search is unavailable: ${e.message}`, true));
    if (input.value) this.#schedule();
  }

  close() {
    this.$('.backdrop').classList.remove('on');
    this.$('input').setAttribute('aria-expanded', 'false');
    this.#seq++;
    this.#lastFocus?.focus?.();
  }

  #status(text, isError = false) {
    const s = this.$('.status');
    s.textContent = text;
    s.classList.toggle('error', isError);
  }

  #schedule() {
    clearTimeout(this.#timer);
    clearTimeout(this.#upgrade);
    const q = this.$('input').value;
    const seq = ++this.#seq;
    if (!q.trim()) {
      this.#render([], '');
      this.$('.facets').innerHTML = '';
      this.$('button.ctx').hidden = true;
      this.#status('');
      return;
    }
    // Warm the shards of what is typed so far; the search proper waits for a pause in typing.
    this.#index?.preload(q, { language: this.#language() }).catch(() => {});
    this.#timer = setTimeout(() => this.#run(q, seq), DEBOUNCE_MS);
  }

  /**
   * The reader's language: the element's `lang`, else the page's. A multilingual index then searches
   * that language's pages and stems the query's words as it stemmed theirs; an index without it
   * ignores it.
   */
  #language() {
    return this.getAttribute('lang') || globalThis.document?.documentElement?.lang || undefined;
  }

  /** The mode of the keystroke search; in `auto` mode a hybrid search follows once typing pauses. */
  #modes(index) {
    const mode = this.getAttribute('mode') ?? 'auto';
    if (mode !== 'auto') return [mode, null];
    return ['lexical', index.summary.vectorModel == null ? null : 'hybrid'];
  }

  async #run(q, seq, upgrade = false) {
    const slow = setTimeout(() => seq === this.#seq && this.#status('Searching…'), 150);
    try {
      const index = this.#index ?? (await this.#engine());
      const k = Number(this.getAttribute('k') ?? 10);
      const [typing, paused] = this.#modes(index);
      const mode = upgrade ? paused : typing;
      // The reader may not have finished the last word: it also matches longer words.
      const facets = this.hasAttribute('facets');
      const version = this.#version ?? (this.getAttribute('version') || undefined);
      const filters = facets ? { facets, kind: this.#kind ?? undefined, tags: [...this.#tags], group: this.#group ?? undefined } : {};
      const results = await index.search(q, { k, mode, prefix: true, language: this.#language(), version, ...filters });
      if (seq !== this.#seq) return; // a newer keystroke won: drop this stale response
      // The list never changes under a reader who has started choosing from it with the keyboard.
      if (upgrade && this.#choosing) return;
      // An upgrade that ranks the same pages in the same order leaves the list (and the selection) be.
      // Marks follow the words searched: the corrected ones where typo tolerance stepped in.
      if (!upgrade || this.#shown !== results.map((r) => r.url).join('\n')) this.#render(results, results.correctedQuery ?? q);
      if (facets) this.#renderFacets(results.facets);
      this.$('button.ctx').hidden = !this.hasAttribute('copy-context') || !results.length;
      // Typo tolerance searched corrected words, or quoted words ranked unquoted: say so (textContent, never HTML).
      const fixed = results.correctedQuery;
      const corrections = results.corrections ?? [];
      const quotes = corrections.some((c) => c.from === '"') ? 'No page has the quoted words in that order. ' : '';
      this.#status(!results.length ? `No results for “${q}”` : fixed ? `${quotes}Showing results for “${fixed}”` : '');
      this.dispatchEvent(new CustomEvent('aidocs-results', { detail: { query: q, results, mode, corrections, correctedQuery: fixed ?? null, facets: results.facets } }));
      if (!upgrade && paused) {
        const pause = Number(this.getAttribute('hybrid-pause') ?? HYBRID_PAUSE_MS);
        const wait = Math.max(0, (Number.isFinite(pause) ? pause : HYBRID_PAUSE_MS) - DEBOUNCE_MS);
        this.#upgrade = setTimeout(() => seq === this.#seq && this.#run(q, seq, true), wait);
      }
    } catch (e) {
      if (seq === this.#seq) this.#status(`Search failed: ${e.message}`, true);
    } finally {
      clearTimeout(slow);
    }
  }

  #render(results, q) {
    this.#shown = results.map((r) => r.url).join('\n');
    // Issue 18: a URL that is not a safe link (javascript:, data:, another origin…) is listed as text.
    const href = (url) => {
      const h = safeHref(url);
      return h == null ? 'aria-disabled="true"' : `href="${escapeHtml(h)}"`;
    };
    this.#choosing = false;
    const list = this.$('#listbox');
    const html = [];
    let n = 0;
    // Groups appear in the order of their best result, so the top hit is always first.
    const order = [...new Set(results.map((r) => r.kind))];
    for (const [kind, label] of GROUPS.slice().sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))) {
      const pages = results.filter((r) => r.kind === kind);
      if (!pages.length) continue;
      html.push(`<li class="group" role="presentation">${escapeHtml(label)}</li>`);
      for (const r of pages) {
        const page = r.sections.find((s) => !s.anchor) ?? r.sections[0];
        const api = r.api
          ? `<div class="row"><span class="badge ${escapeHtml(r.api.method.toLowerCase())}">${escapeHtml(r.api.method)}</span>` +
            `<span class="path">${escapeHtml(r.api.path)}</span><button class="curl" type="button" data-curl="${n}" tabindex="-1">Copy curl</button></div>`
          : '';
        html.push(
          `<li role="presentation"><a class="opt page" role="option" id="opt-${n}" data-n="${n}" aria-selected="false" ${href(r.url)}>` +
            `<span class="title">${highlight(r.title, q)}</span> <span class="crumb">${escapeHtml(r.breadcrumb.join(' › '))}</span>${api}` +
            (page?.excerpt ? `<span class="excerpt">${highlight(page.excerpt, q)}</span>` : '') +
            `</a></li>`,
        );
        this.#options[n++] = r;
        for (const s of r.sections.filter((s) => s.anchor).slice(0, 3)) {
          html.push(
            `<li role="presentation"><a class="opt section" role="option" id="opt-${n}" data-n="${n}" aria-selected="false" ${href(s.url)}>` +
              `<span class="title"># ${highlight(s.title, q)}</span>` +
              (s.excerpt ? `<span class="excerpt">${highlight(s.excerpt, q)}</span>` : '') +
              `</a></li>`,
          );
          this.#options[n++] = s;
        }
      }
    }
    this.#options.length = n;
    list.innerHTML = html.join('');
    this.$('input').setAttribute('aria-expanded', String(n > 0));
    this.#select(n ? 0 : -1);
  }

  /**
   * The filter chips: each kind with matches, the docs versions (unless the `version` attribute
   * fixes one), the commonest navigation groups, then the commonest tags; any pressed one stays.
   */
  #renderFacets(f) {
    const chip = (attr, value, label, count, pressed) =>
      `<button class="chip" type="button" ${attr}="${escapeHtml(value)}" aria-pressed="${pressed}">${escapeHtml(label)}<span>${count}</span></button>`;
    const html = [];
    const kinds = f?.kind ?? [];
    if (kinds.length > 1 || this.#kind) {
      for (const [kind, label] of GROUPS) {
        const n = kinds.find((k) => k[0] === kind)?.[1];
        if (n != null) html.push(chip('data-kind', kind, label, n, this.#kind === kind));
      }
    }
    // Values of a one-at-a-time facet: the listed ones (all when there are two or more, or one is
    // pressed) and the pressed one.
    const values = (list, pressed, limit) => {
      const shown = list.length > 1 || pressed ? list.slice(0, limit) : [];
      if (pressed && !shown.some((x) => x[0] === pressed)) shown.push([pressed, 0]);
      return shown;
    };
    if (!this.getAttribute('version')) {
      for (const [v, n] of values(f?.version ?? [], this.#version, 8)) html.push(chip('data-version', v, v, n, this.#version === v));
    }
    for (const [g, n] of values(f?.group ?? [], this.#group, GROUP_CHIPS)) {
      html.push(chip('data-group', g, g.split(' > ').pop(), n, this.#group === g));
    }
    const tags = (f?.tag ?? []).slice(0, TAG_CHIPS);
    for (const t of this.#tags) if (!tags.some((x) => x[0] === t)) tags.push([t, 0]);
    for (const [tag, n] of tags) html.push(chip('data-tag', tag, tag, n, this.#tags.has(tag)));
    this.$('.facets').innerHTML = html.join('');
  }

  #onChip(e) {
    const b = e.target.closest('button.chip');
    if (!b) return;
    const { kind, tag, group, version } = b.dataset;
    if (kind) this.#kind = this.#kind === kind ? null : kind;
    if (group) this.#group = this.#group === group ? null : group;
    if (version) this.#version = this.#version === version ? null : version;
    if (tag) this.#tags.has(tag) ? this.#tags.delete(tag) : this.#tags.add(tag);
    this.$('input').focus();
    this.#schedule();
  }

  #select(i) {
    const opts = this.shadowRoot.querySelectorAll('a.opt');
    opts[this.#active]?.setAttribute('aria-selected', 'false');
    this.#active = i;
    const input = this.$('input');
    if (i < 0 || !opts[i]) {
      input.removeAttribute('aria-activedescendant');
      return;
    }
    opts[i].setAttribute('aria-selected', 'true');
    opts[i].scrollIntoView({ block: 'nearest' });
    input.setAttribute('aria-activedescendant', opts[i].id);
  }

  #onKey(e) {
    const count = this.shadowRoot.querySelectorAll('a.opt').length;
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && count) {
      e.preventDefault();
      clearTimeout(this.#upgrade);
      this.#choosing = true;
      this.#select((this.#active + (e.key === 'ArrowDown' ? 1 : count - 1)) % count);
    } else if (e.key === 'Enter') {
      const a = this.shadowRoot.querySelectorAll('a.opt')[this.#active];
      if (a) {
        e.preventDefault();
        // Only a safe link is followed (checked again here: defence in depth); others stay as text.
        const href = linkOf(a);
        if (href == null) return;
        this.close();
        globalThis.location.assign(href);
      }
    } else if (e.key === 'Escape') {
      e.preventDefault();
      this.close();
    }
  }

  /**
   * Issue 22: the query's evidence for an assistant, as Markdown with numbered citations (absolute
   * URLs), on the clipboard: from `context-endpoint` (the handler's `/context`) when set, else
   * selected here by the index (`context`).
   */
  async #copyContext() {
    const btn = this.$('button.ctx');
    const q = this.$('input').value.trim();
    if (!q) return;
    const tokens = Number(this.getAttribute('context-tokens') ?? 2000);
    const language = this.#language();
    btn.textContent = 'Copying…';
    try {
      const endpoint = this.getAttribute('context-endpoint');
      let text;
      if (endpoint) {
        const u = new URL(endpoint, document.baseURI);
        u.searchParams.set('q', q);
        u.searchParams.set('tokens', String(tokens));
        if (language) u.searchParams.set('lang', language);
        const r = await fetch(u, { headers: { accept: 'text/markdown' } });
        if (!r.ok) throw new Error(`${u.pathname} answered ${r.status}`);
        text = await r.text();
      } else {
        const index = this.#index ?? (await this.#engine());
        text = (await index.context(q, { tokens, language, siteUrl: location.origin })).markdown;
      }
      await navigator.clipboard.writeText(text);
      btn.textContent = 'Copied';
      this.dispatchEvent(new CustomEvent('aidocs-copy', { detail: { context: text, query: q } }));
    } catch (e) {
      btn.textContent = 'Copy failed';
      this.#status(`Copy as context failed: ${e.message}`, true);
    }
    setTimeout(() => (btn.textContent = 'Copy as context'), 1500);
  }

  async #onClick(e) {
    const btn = e.target.closest?.('button.curl');
    if (!btn) {
      const a = e.target.closest?.('a.opt');
      if (a && linkOf(a) == null) e.preventDefault();
      else if (a) this.close();
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    const r = this.#options[Number(btn.dataset.curl)];
    const cmd = curlCommand(r.api, this.getAttribute('api-base'));
    try {
      await navigator.clipboard.writeText(cmd);
      btn.textContent = 'Copied';
    } catch {
      btn.textContent = 'Copy failed';
    }
    this.dispatchEvent(new CustomEvent('aidocs-copy', { detail: { command: cmd } }));
    setTimeout(() => (btn.textContent = 'Copy curl'), 1500);
  }
}

if (globalThis.customElements && !customElements.get('aidocs-search')) {
  customElements.define('aidocs-search', AidocsSearchElement);
}
