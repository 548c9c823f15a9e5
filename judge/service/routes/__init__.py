"""The API's routes, one router per resource: `health`, `problems`, `hints`, `submissions`, `gradebook`,
`similarity` and `analytics`, each built over the `ApiContext` (judge.service.routes.context) that
holds what they share: the store, the queue, the judge, and who is asking."""
