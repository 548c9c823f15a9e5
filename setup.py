"""Build configuration that pyproject.toml cannot say: the course folders as package data.

The repository's problems/, hidden_tests/, submissions/ and units/ stay the
single source; here they are mapped into the package `judge_course` so that
a wheel (and an sdist) carries the whole course. Everything else is in
pyproject.toml.
"""
from setuptools import find_packages, setup

COURSE = {"problems": ["*.yaml"], "hidden_tests": ["**/*.py", "**/*.yaml"],
          "submissions": ["**/*.py"], "units": ["*.yaml"]}

setup(
    packages=find_packages(include=["judge", "judge.*", "judge_course"]) + [f"judge_course.{f}" for f in COURSE],
    package_dir={f"judge_course.{folder}": folder for folder in COURSE},
    package_data={
        "judge.web": ["templates/*.html", "static/*.js", "static/*.css", "static/fonts/*.woff2"],
        "judge.service": ["templates/*.html"],
        **{f"judge_course.{folder}": patterns for folder, patterns in COURSE.items()},
    },
)
