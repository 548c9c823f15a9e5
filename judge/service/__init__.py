"""`judge service`: the judge as a multi-user HTTP service.

A thin face over `judge.judging.session.Judge`: `api` takes submissions over HTTP
(one router per resource in `routes`, errors answered by `responses`, requests
bounded by `guards`), `storage` keeps every submission's state in a database (the
source of truth; its `lifecycle` is the at-least-once contract the workers rely on),
`queue` hands submission ids to workers (Dramatiq over Redis, or an in-process
pool when there is no Redis), `worker` judges them with one warm `Judge` per
process, and `reaper` re-enqueues what a lost worker or a lost message left
behind. `storage` also shares the judging fairly between accounts and bounds
each account's queued work; `faults` says which errors are passing ones, logged
in one line. For instructors: `roster` brings a class in (people's names,
logins), `course` reads a course file (points, dates, late rules, extensions,
which submission counts, feedback), `gradebook` grades by it (long and wide),
`feedback` holds back what a learner reads of a report, `similarity` finds
alike submissions in `canonical`'s normal form of the syntax tree and
`classnorm` says how unusual a score is in its class, `analytics` counts
mistakes and failed tests and names who made them, `regrade` judges a changed
problem's submissions again, and `review` is their pages. `commands` is the `judge service` CLI. Its
dependencies are the `service` extra: `pip install -e '.[service]'`.
"""
