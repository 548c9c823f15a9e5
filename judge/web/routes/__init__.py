"""The page's routes, one router per resource, each built over the `WebContext` (judge.web.routes.context):
`pages` (the HTML pages), `run` (judging the editor's source, streamed), `hints`, `history` (attempts,
their code and diffs), `solution`, `quiz` (a unit's answers) and `control` (`judge serve --status/--stop`)."""
