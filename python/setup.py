"""What pyproject.toml cannot say: the version, read from src/boids.h (one number, one place), and
the built library and program copied into the package (boids/_bin/), so an installed package
finds them beside itself with no PYTHONPATH, BOIDS_LIBRARY or BOIDS_PROGRAM. They come from
$BOIDS_BUILD_DIR, else build/release beside this folder; a package without them is refused at
build time rather than failing at import. The wheel is marked as this machine's (it holds a
compiled library), not as pure Python.
"""
import os
import re
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def version():
    with open(os.path.join(ROOT, "src", "boids.h"), encoding="utf-8") as f:
        text = f.read()
    return ".".join(re.search(rf"#define BOIDS_VERSION_{part} (\d+)", text).group(1)
                    for part in ("MAJOR", "MINOR", "PATCH"))


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        build = os.environ.get("BOIDS_BUILD_DIR") or os.path.join(ROOT, "build", "release")
        files = {name: os.path.join(build, "src", name) for name in ("libboids.so.0", "boids")}
        missing = [p for p in files.values() if not os.path.isfile(p)]
        if missing:
            raise SystemExit("boids: the package carries the library and program of a build, "
                             "and there is none at " + ", ".join(missing) + ": build first "
                             "(cmake --preset release && cmake --build --preset release) or set "
                             "BOIDS_BUILD_DIR")
        dest = os.path.join(self.build_lib, "boids", "_bin")
        os.makedirs(dest, exist_ok=True)
        for name, path in files.items():  # (the library's real file, not its link)
            shutil.copy2(os.path.realpath(path), os.path.join(dest, name))


class MachineDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(version=version(), cmdclass={"build_py": BuildWithLibrary}, distclass=MachineDistribution)
