/* A classic script, so that it runs where the page's modules cannot: Chromium loads no
   module script for a page opened from a file (file://: "blocked by CORS policy") and
   lets it fetch nothing.  It says so, and how to open the folder instead. */
(function () {
  "use strict";
  if (location.protocol !== "file:") return;
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("connection");
    box.textContent = "This page was opened from a file: the browser runs none of its " +
      "modules then. Serve its folder instead (python -m http.server -d FOLDER) and open " +
      "http://localhost:8000/";
    box.className = "connection bad";
  });
})();
