"""The local web page of `judge serve`: a thin face over `judge.judging.session.Judge`.

guard.py     who may talk to the server (token, Host, Origin)
statement.py a problem's Markdown as HTML (maths left to KaTeX in the page)
payload.py   results and attempts as the page's JSON
app.py       the app: its routers, templates, static files and guard
routes/      one router per resource (pages, run, hints, history, solution, quiz, control)
server.py    the `judge serve` process: the web page and the warm judge socket
registry.py  which servers run (`judge serve --status`, `--stop`)

Needs the `web` extra (FastAPI, uvicorn, Jinja2, markdown-it-py); the
front-end bundle in static/ is built from web/ at the repository root.
"""
