"""复盘 on the server: the review of a seat's decisions in a finished hand
(:mod:`paiju.review`), made off the event loop in the bounded pool of heavy work and kept
once made (``GET /api/games/{id}/review?seat=S``)."""
