// Results as you type on the search page: the same page fetched again (a plain GET of the form,
// so the server ranks exactly as on Enter) and its results swapped in. Without this script the
// form works as it is; Enter always submits it.
(function () {
  var form = document.querySelector('form.search');
  var input = document.getElementById('q');
  var results = document.getElementById('results');
  if (!form || !input || !results) return;
  var timer;
  var latest = 0;
  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var words = input.value.trim();
      if (words === '') return;
      var url = form.getAttribute('action') + '?q=' + encodeURIComponent(words);
      var asked = ++latest;
      fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin' })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html === null || asked !== latest) return;
          var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('results');
          if (!fresh) return;
          results.replaceChildren.apply(results, Array.prototype.slice.call(fresh.childNodes));
          history.replaceState(null, '', url);
        })
        .catch(function () { /* the form still works: Enter submits it */ });
    }, 200);
  });
})();
