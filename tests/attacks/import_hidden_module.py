"""Import the reference as a module from the problem set."""
import sys

sys.path.insert(0, "@ROOT@/hidden_tests/double")
sys.path.insert(0, "@ROOT@")
import reference  # noqa: E402

print("PWNED", reference.__file__)
double = reference.double
