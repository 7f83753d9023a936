import sys
from pathlib import Path

# the fault scripts' server helpers live beside the scripts, in benchmarks/
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
