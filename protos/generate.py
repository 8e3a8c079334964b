"""Generate the Python code for protos/ into arena/v1/ (with .pyi stubs).

    python protos/generate.py            # write arena/v1/*_pb2.py, *_pb2.pyi, *_pb2_grpc.py
    python protos/generate.py --out DIR  # write elsewhere (the freshness test uses this)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"


def generate(out: Path) -> list[Path]:
    """Run protoc over every .proto file; return the files written under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    sources = sorted(str(p.relative_to(PROTOS)) for p in PROTOS.rglob("*.proto"))
    include = str(Path(protoc.__file__).parent / "_proto")
    code = protoc.main([
        "grpc_tools.protoc", f"-I{PROTOS}", f"-I{include}",
        f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}", *sources,
    ])
    if code != 0:
        raise SystemExit(f"protoc failed with exit code {code}")
    package = out / "arena" / "v1"
    note = '"""Generated from protos/arena/v1 by protos/generate.py: do not edit."""\n'
    (package / "__init__.py").write_text(note)
    (package / "py.typed").write_text("")
    return sorted(package.iterdir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="folder that receives arena/v1/")
    args = parser.parse_args()
    written = generate(args.out)
    print(f"wrote {len(written)} files to {args.out / 'arena' / 'v1'}", file=sys.stderr)


if __name__ == "__main__":
    main()
