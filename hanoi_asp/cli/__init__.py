"""The command line: the parser (:mod:`~hanoi_asp.cli.parser`) and one short handler
per command (:mod:`~hanoi_asp.cli.commands`); errors go to the one funnel in
:mod:`hanoi_asp.__main__`."""
