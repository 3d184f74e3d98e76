"""The ``paiju`` command line: ``paiju --help`` lists the commands.

Errors print one line on stderr and exit with status 2.
"""

from paiju.cli import admin as admin
from paiju.cli import baozi as baozi
from paiju.cli import climbing as climbing
from paiju.cli import console as console
from paiju.cli import core as core
from paiju.cli import danzi as danzi
from paiju.cli import duel as duel
from paiju.cli import majiang as majiang
from paiju.cli import operator as operator
from paiju.cli import server as server
from paiju.cli import shisanzhang as shisanzhang
from paiju.cli import shisanzhang_solver as shisanzhang_solver
from paiju.cli.app import cli, main

__all__ = ["cli", "main"]
