import sys

from conv.cli import main

sys.exit(main())
