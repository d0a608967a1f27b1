// thresher report, index page: renders the JSON island #data (summary, sites, pages)
// into the summary cards, the site table and a filtered, paginated page list. Filters
// live in the URL's hash so that "back" from a page view returns to the same list.
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('data').textContent);
  const S = D.summary || {};
  const PER_PAGE = 100;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) =>
    ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  const num = (x) => (x == null ? '' : typeof x === 'number' ? x.toLocaleString('en') : x);

  // Summary cards: every figure is summary.json's own.
  const dd = S.dedup || {};
  const cards = [
    ['pages', S.pages, 'pages'], ['extracted', S.extracted, 'extracted'],
    ['failed', S.failed, 'failed'], ['empty_text', S.empty_text, 'empty text'],
    ['clusters', dd.clusters, 'clusters'], ['duplicates', dd.duplicates, 'duplicates'],
    ['pages_per_second', S.pages_per_second, 'pages/s'],
  ];
  $('summary').innerHTML = cards.filter((c) => c[1] != null).map((c) =>
    `<div class=card data-key="${c[0]}"><b>${esc(num(c[1]))}</b><span>${esc(c[2])}</span></div>`).join('');
  $('sub').textContent = `${D.pages.length} page views, ${D.traced} with every block's reason; threads ${S.threads ?? '?'}`;
  const kv = (id, obj, key) => {
    const e = Object.entries(obj || {});
    $(id).innerHTML = e.length
      ? e.map(([k, v]) => `<tr data-${key}="${esc(k)}"><td>${esc(k)}</td><td class=n>${esc(num(v))}</td></tr>`).join('')
      : '<tr><td class=muted>none</td></tr>';
  };
  kv('methods', S.methods, 'method');
  kv('errors', S.errors, 'error');
  kv('timings', S.timings_s, 'stage');

  // Rules: summary.json's per-rule counters (breakage = broke + errors).
  const perRule = ((S.extractors || {}).rules || {}).per_rule || {};
  const broke = (site) => Object.entries(perRule)
    .filter(([k]) => k.split('#')[0].replace(/\.ya?ml$/, '') === site)
    .reduce((n, [, r]) => n + (r.broke || 0) + (r.errors || 0), 0);
  const ruleRows = Object.entries(perRule);
  $('rules').innerHTML = ruleRows.length
    ? '<tr><th>rule</th><th class=n>matched</th><th class=n>yielded</th><th class=n>broke</th><th class=n>errors</th><th class=n>mean words</th><th>broken on</th></tr>' +
      ruleRows.map(([k, r]) => `<tr data-rule="${esc(k)}"><td>${esc(k)}</td><td class=n>${r.matched}</td><td class=n>${r.yielded}</td>` +
        `<td class=n${r.broke ? ' style="color:#c00"' : ''}>${r.broke}</td><td class=n${r.errors ? ' style="color:#c00"' : ''}>${r.errors}</td>` +
        `<td class=n>${r.mean_words == null ? '' : Math.round(r.mean_words)}</td>` +
        `<td>${esc([...((r.examples || {}).broke || []), ...((r.examples || {}).errors || [])].join(' '))}</td></tr>`).join('')
    : '<tr><td class=muted>no rules in this run</td></tr>';

  // Sites.
  const pct = (x) => (x == null ? '' : (100 * x).toFixed(1) + ' %');
  $('sites').innerHTML = '<tr><th>site</th><th class=n>pages</th><th class=n>errors</th><th class=n>empty</th>' +
    '<th class=n>text kept</th><th class=n>template</th><th class=n>rule pages</th><th class=n>rules broke</th><th>methods</th></tr>' +
    D.sites.map((s) => `<tr><td><a href="#" data-site="${esc(s.site)}">${esc(s.site)}</a></td><td class=n>${s.pages}</td>` +
      `<td class=n>${s.errors}</td><td class=n>${s.empty}</td><td class=n>${pct(s.kept_share)}</td><td class=n>${pct(s.template_share)}</td>` +
      `<td class=n>${s.rule_pages}</td><td class=n${broke(s.site) ? ' style="color:#c00"' : ''}>${broke(s.site) || s.rule_fallbacks}</td>` +
      `<td>${esc(Object.entries(s.methods).map(([m, n]) => `${m} ${n}`).join(', '))}</td></tr>`).join('');
  $('sites').addEventListener('click', (e) => {
    const a = e.target.closest('a[data-site]');
    if (!a) return;
    e.preventDefault();
    $('fSite').value = a.dataset.site;
    page = 0;
    update();
    $('fSite').scrollIntoView();
  });

  // Filters.
  const P = D.pages; // [path, url, site, title, method, words, kept, error, cluster, role, traced]
  const options = (id, values, all) => {
    $(id).innerHTML = `<option value="">${all}</option>` +
      values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join('');
  };
  const uniq = (i) => [...new Set(P.map((r) => r[i]).filter((v) => v))].sort();
  options('fSite', uniq(2), 'all sites');
  options('fMethod', uniq(4), 'all methods');
  $('fError').innerHTML = '<option value="">all</option><option value="none">no error</option>' +
    '<option value="any">any error</option>' + uniq(7).map((k) => `<option value="${esc(k)}">${esc(k)}</option>`).join('');
  let page = 0;
  const get = () => ({
    site: $('fSite').value, method: $('fMethod').value, error: $('fError').value,
    role: $('fRole').value, q: $('fQ').value.trim().toLowerCase(),
  });
  const keep = (f) => (r) =>
    (!f.site || r[2] === f.site) && (!f.method || r[4] === f.method) &&
    (!f.error || (f.error === 'none' ? !r[7] : f.error === 'any' ? !!r[7] : r[7] === f.error)) &&
    (!f.role || (f.role === 'none' ? !r[9] : r[9] === f.role)) &&
    (!f.q || r[1].toLowerCase().includes(f.q) || r[0].toLowerCase().includes(f.q) || r[3].toLowerCase().includes(f.q));
  function update() {
    const f = get();
    const idx = [];
    for (let i = 0; i < P.length; i++) if (keep(f)(P[i])) idx.push(i);
    const pages = Math.max(1, Math.ceil(idx.length / PER_PAGE));
    page = Math.min(page, pages - 1);
    $('shown').textContent = `${idx.length} of ${P.length} pages`;
    $('shown').dataset.count = idx.length;
    $('pageNo').textContent = `page ${page + 1} of ${pages}`;
    $('prev').disabled = page === 0;
    $('next').disabled = page >= pages - 1;
    $('pages').innerHTML = '<tr><th>page</th><th>site</th><th>method</th><th class=n>words</th><th class=n>kept</th><th>error</th><th>cluster</th></tr>' +
      idx.slice(page * PER_PAGE, (page + 1) * PER_PAGE).map((i) => {
        const r = P[i];
        return `<tr class=row data-i="${i}"><td><a class=view href="pages/${i}.html">${esc(r[3] || r[1] || r[0])}</a>` +
          `<div class=muted>${esc(r[1] || r[0])}</div></td><td>${esc(r[2])}</td><td>${esc(r[4])}</td>` +
          `<td class=n>${r[5]}</td><td class=n>${pct(r[6])}</td><td>${esc(r[7] || '')}</td><td>${esc(r[9])}</td></tr>`;
      }).join('');
    const h = new URLSearchParams(Object.entries(f).filter(([, v]) => v));
    if (page) h.set('p', page + 1);
    history.replaceState(null, '', '#' + h.toString());
  }
  // Restore the filters from the hash.
  const h = new URLSearchParams(location.hash.slice(1));
  for (const [k, id] of [['site', 'fSite'], ['method', 'fMethod'], ['error', 'fError'], ['role', 'fRole'], ['q', 'fQ']]) {
    if (h.get(k)) $(id).value = h.get(k);
  }
  page = Math.max(0, (parseInt(h.get('p'), 10) || 1) - 1);
  for (const id of ['fSite', 'fMethod', 'fError', 'fRole']) $(id).addEventListener('change', () => { page = 0; update(); });
  $('fQ').addEventListener('input', () => { page = 0; update(); });
  $('prev').addEventListener('click', () => { page--; update(); });
  $('next').addEventListener('click', () => { page++; update(); });
  update();
})();
