"""The app's routers, by topic: the page's files (:mod:`.page`), the lists and the parse
of the page's menus and board (:mod:`.lists`), the jobs (:mod:`.jobs`) and the API's
documentation (:mod:`.docs`)."""
