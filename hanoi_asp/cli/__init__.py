"""The command line: one module per command, its options beside its handler
(:data:`~hanoi_asp.cli.commands.COMMANDS`), the solve options made from their one
declaration (:mod:`~hanoi_asp.cli.solve_options`), and the parser
(:mod:`~hanoi_asp.cli.parser`: the named command's alone, or all of them for
``--help``); errors go to the one funnel in :mod:`hanoi_asp.__main__`."""
