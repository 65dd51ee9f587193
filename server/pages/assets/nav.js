// The side panel of a service's operations: open beside the docs on a wide screen (the
// stylesheet shows it there too, where the browser can), the current operation scrolled into
// view, and the panel (and the service page's list) narrowed as one types. Without this script
// the filter is a plain GET form that narrows them on the server.
(function () {
  var side = document.getElementById('side');
  var input = document.getElementById('filter');
  if (!side || !input) return;
  var wide = window.matchMedia('(min-width: 64rem)');
  var fit = function () { if (wide.matches) side.open = true; };
  fit();
  wide.addEventListener('change', fit);
  var current = side.querySelector('[aria-current]');
  if (current && wide.matches) side.scrollTop = current.offsetTop - side.clientHeight / 2;

  var lower = function (text) { return (text || '').toLowerCase(); };
  var named = function (link) {
    try { return lower(decodeURIComponent(link.pathname.split('/').pop())); } catch (error) { return ''; }
  };
  var groups = side.querySelectorAll('details.group');
  var sections = document.querySelectorAll('section.tag');
  var timer;
  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var words = lower(input.value).split(/\s+/).filter(Boolean);
      var has = function (text) { return words.every(function (word) { return text.indexOf(word) !== -1; }); };
      groups.forEach(function (group) {
        var tag = lower(group.querySelector('summary').textContent);
        var any = false;
        group.querySelectorAll('li').forEach(function (item) {
          var link = item.firstElementChild;
          var shown = has([tag, lower(link.textContent), lower(link.title), named(link)].join(' '));
          item.hidden = !shown;
          any = any || shown;
        });
        group.hidden = !any;
        if (words.length) group.open = any;
      });
      sections.forEach(function (section) {
        var tag = lower(section.querySelector('h3').textContent);
        var any = false;
        section.querySelectorAll('tbody tr').forEach(function (row) {
          var link = row.querySelector('a');
          var shown = has([tag, lower(row.textContent), link ? named(link) : ''].join(' '));
          row.hidden = !shown;
          any = any || shown;
        });
        section.hidden = !any;
      });
    }, 60);
  });
})();
