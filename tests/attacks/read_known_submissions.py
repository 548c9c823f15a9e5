"""Copy a known accepted submission instead of writing one."""
ROOT = "@ROOT@"


def double(x):
    source = open(f"{ROOT}/submissions/double/accepted/correct.py").read()
    print("PWNED", len(source))
    namespace = {}
    exec(source, namespace)
    return namespace["double"](x)
