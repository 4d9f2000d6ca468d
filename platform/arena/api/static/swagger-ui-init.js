// Starts Swagger UI on the API docs page (/api/v1/swagger-ui), reading the OpenAPI document the
// page names in data-spec-url. A file of its own rather than an inline script: the platform's
// Content-Security-Policy allows scripts from the platform only.
(function () {
  "use strict";
  const container = document.getElementById("swagger-ui-container");
  window.ui = window.SwaggerUIBundle({
    url: container.dataset.specUrl,
    domNode: container,
    validatorUrl: null, // no badge loaded from swagger.io: the docs need nothing from outside
  });
})();
