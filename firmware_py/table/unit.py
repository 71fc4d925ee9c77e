"""The systemd unit that makes the table service an installation: started at boot, restarted when it
stops or hangs, its writes confined to its data directory.

`unit_text(Unit(...))` is the file `roseking install-service` writes (docs/SERVICE.md says why each
line is there). The command line has no `--mode`: a restart, whatever caused it, resumes the saved
game. The service tells systemd it is up once its devices are open and its first frame shown
(`Type=notify`), and pings the watchdog from its loop (`WatchdogSec=`); `Restart=always` with no
start limit brings it back after a crash, a hang or a kill, for as long as the machine runs. A stop
(SIGTERM: exit status 143) is a success, so `systemctl stop` leaves the unit inactive, not failed.
Its status file lives in the runtime directory (`RuntimeDirectory=`, in RAM), kept until the
machine stops so that `roseking status` can say when the service stopped.

>>> print(unit_text(Unit("/opt/rk/bin/roseking", "/etc/roseking.toml", "/srv/roseking", "table")))  # doctest: +ELLIPSIS
# roseking.service: the table service of The Rose King, written by `roseking install-service`.
...
ExecStart=/opt/rk/bin/roseking play --config /etc/roseking.toml --data-dir /srv/roseking
...
"""
from dataclasses import dataclass

from firmware_py.inputs import shown

UNIT_NAME = "roseking.service"
WATCHDOG_SECONDS = 30       # the loop pings every 15 s; one that has not turned for 30 s is restarted
RESTART_SECONDS = 3
START_SECONDS = 120         # a Pi's first start: imports, the devices opened, the first frame shown
STOP_SECONDS = 30           # the computer stopped, the last save written, the devices blanked
PATH_MAX = 4095             # bytes of the longest path Linux takes


class UnitError(ValueError):
    """A path that cannot be written into a unit file."""


@dataclass(frozen=True)
class Unit:
    """What the unit runs: the venv's `roseking`, the `config` file, the `data` directory (its only
    writable path), as `user`; absolute paths."""
    roseking: str
    config: str
    data: str
    user: str


def quoted(value: str, exec_line: bool = False, whole: bool = False) -> str:
    """`value` as a word of a unit file: in double quotes when it holds a blank (not for a setting that
    takes the `whole` rest of its line, as WorkingDirectory=), `%` doubled (a specifier otherwise), and
    on an Exec line `$` doubled too (a variable otherwise); UnitError for a quote, a backslash or a
    control character, which a path of ours never needs.

    >>> quoted("/srv/my data/100%"), quoted("/opt/$HOME/bin", exec_line=True), quoted("/a b", whole=True)
    ('"/srv/my data/100%%"', '/opt/$$HOME/bin', '/a b')
    """
    if any(c in value for c in "\"'\\") or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise UnitError(f"{shown(value)!r}: a quote, a backslash or a control character cannot go into the unit")
    try:
        value.encode()
    except UnicodeEncodeError:
        raise UnitError(f"{shown(value)}: not UTF-8, as every line of a unit must be") from None
    if len(value.encode()) > PATH_MAX:
        raise UnitError(f"{shown(value)[:60]}…: longer than {PATH_MAX} bytes, the longest path there is")
    value = value.replace("%", "%%")
    if exec_line:
        value = value.replace("$", "$$")
    return f'"{value}"' if " " in value and not whole else value


def unit_text(unit: Unit) -> str:
    """The unit file for `unit`."""
    data = quoted(unit.data)
    command = " ".join(quoted(word, exec_line=True) for word in (
        unit.roseking, "play", "--config", unit.config, "--data-dir", unit.data))
    return f"""\
# {UNIT_NAME}: the table service of The Rose King, written by `roseking install-service`.
# Why each line is here: docs/SERVICE.md of roseking. How the table is: roseking status --data-dir {data}
[Unit]
Description=The Rose King table service
After=network.target
RequiresMountsFor={data}
# restarted for as long as the machine runs, however often it stops
StartLimitIntervalSec=0

[Service]
Type=notify
NotifyAccess=main
# no --mode: a restart resumes the saved game
ExecStart={command}
User={quoted(unit.user)}
WorkingDirectory={quoted(unit.data, whole=True)}
Restart=always
RestartSec={RESTART_SECONDS}
# SIGTERM (systemctl stop) ends it with 143: a clean stop, not a failure
SuccessExitStatus=143
WatchdogSec={WATCHDOG_SECONDS}
TimeoutStartSec={START_SECONDS}
TimeoutStopSec={STOP_SECONDS}
Environment=PYTHONUNBUFFERED=1
SyslogIdentifier=roseking
# the status, rewritten every few seconds, in RAM (/run/roseking): it wears no SD card out
RuntimeDirectory=roseking
RuntimeDirectoryPreserve=yes
UMask=0022
# Confinement: the data directory is the only path it writes. Device access is left to the user's groups
# (gpio, spi): the NeoPixel drivers need devices a list would have to name for each Pi (docs/SERVICE.md).
ProtectSystem=strict
ReadWritePaths={data}
ProtectHome=read-only
PrivateTmp=yes
NoNewPrivileges=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectHostname=yes
RestrictSUIDSGID=yes
RestrictNamespaces=yes
RestrictRealtime=yes
LockPersonality=yes
SystemCallArchitectures=native
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6

[Install]
WantedBy=multi-user.target
"""
