"""`python -m warpdrill_cli ...` runs the same command as the `warpdrill` script."""
import sys

from .main import main

sys.exit(main())
