"""Print the observation and action layouts of every environment, or refresh them in a file.

python -m wolfden.envs                   # print every game's tables
python -m wolfden.envs --write docs/rl.md
"""

from __future__ import annotations

import sys
from pathlib import Path

from wolfden.envs import ids, layout_markdown, refresh_tables


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--write":
        path = Path(argv[1])
        path.write_text(refresh_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    for game_id in ids():
        print(f"## {game_id}\n\n{layout_markdown(game_id)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
