// Starts Swagger UI on the document its page names (`data-url`: the service's own document on
// /docs, one service's export on a service's reference page), so no page needs an inline script.
// validatorUrl null: Swagger UI would otherwise send the document to an outside validator.
window.ui = SwaggerUIBundle({
  url: document.getElementById('swagger-ui').dataset.url,
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayOperationId: true,
  docExpansion: 'list',
  // Its themes colour numbers and strings under 4.5:1 against their dark background (agate: #d36363 on #333).
  syntaxHighlight: { activated: false },
});

// What axe-core finds in Swagger UI's own markup, mended as it renders (React leaves alone the
// attributes it does not set):
// - the servers list has no name;
// - with deepLinking each operation's summary button holds a link, a control inside a control:
//   the link loses its href (the address bar still shows the deep link once the operation opens);
// - the title is an h1, the tags h3 and the Schemas section an h4: both are told to be level 2,
//   and an operation's sections (h4, h5) level 3 and 4;
// - the API's description and its servers stand outside the operations' main landmark: each is
//   made a named region.
var REGIONS = { 'information-container': 'About this API', 'scheme-container': 'Servers and authorization' };
function mendAccessibility(root) {
  root.querySelectorAll('select:not([aria-label]):not([aria-labelledby])').forEach(function (select) {
    select.setAttribute('aria-label', select.id === 'servers' ? 'Server' : 'Choose a value');
  });
  root.querySelectorAll('.opblock-summary-control a[href]').forEach(function (link) {
    link.removeAttribute('href');
  });
  root.querySelectorAll('h3.opblock-tag:not([aria-level]), section.models > h4:not([aria-level])').forEach(function (heading) {
    heading.setAttribute('aria-level', '2');
  });
  root.querySelectorAll('.opblock h4:not([aria-level]), .opblock h5:not([aria-level])').forEach(function (heading) {
    heading.setAttribute('aria-level', heading.tagName === 'H4' ? '3' : '4');
  });
  // An example that scrolls sideways is reached by the keyboard too.
  root.querySelectorAll('.opblock pre:not([tabindex])').forEach(function (example) {
    example.setAttribute('tabindex', '0');
  });
  Object.keys(REGIONS).forEach(function (name) {
    root.querySelectorAll('.' + name + ':not([role])').forEach(function (element) {
      element.setAttribute('role', 'region');
      element.setAttribute('aria-label', REGIONS[name]);
    });
  });
}
var swaggerRoot = document.getElementById('swagger-ui');
new MutationObserver(function () { mendAccessibility(swaggerRoot); }).observe(swaggerRoot, { childList: true, subtree: true });
