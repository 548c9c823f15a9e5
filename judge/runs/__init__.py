"""One run of code, whoever runs it: what is called and observed, what a backend promises, what its facts decide.

calls (calling a solution on a case's inputs and observing value, error, gradients, mutation; the
same code runs the reference in the judge and the submission in the sandbox child), contract (the
run contract between the judge and a backend: `Program`, `Limits`, `RunResult`, `Backend`),
decisions (the one place that turns a run's facts and a submission's errors into verdicts and
messages).
"""
