"""The `[web]` section and `roseking play --web`: every key checked, errors naming the key; loopback
unless the configuration or the command line says otherwise; a bad address or a taken port is one
error line and status 2, before anything is opened."""
import socket

import pytest

from firmware_py.cli import main
from firmware_py.errors import UsageError
from firmware_py.web.settings import WebSettings, parse_web, with_address
from hardware import ConfigError

from test_cli_analysis import assert_user_error

TOKEN = "settings-test-token-0123"


def test_the_example_configuration_s_web_section_is_the_defaults():
    from firmware_py.device_options import load_config
    from test_hardware_config import EXAMPLE
    example = load_config(str(EXAMPLE))
    assert parse_web(example.web, example.source) == WebSettings()


def test_the_defaults_listen_on_loopback_and_serve_nothing_without_a_port():
    s = parse_web({})
    assert s == WebSettings() and s.port is None and s.loopback and s.token is None
    assert not s.allow_remote_play and not s.allow_naming


@pytest.mark.parametrize("data, error", [
    ({"port": 70000}, "web.port: must be between 0 and 65535 (got 70000)"),
    ({"port": "8080"}, 'web.port: must be a whole number (got "8080")'),
    ({"host": "example.org"}, "web.host: must be an IP address, or \"localhost\" (got 'example.org')"),
    ({"token": "short"}, "web.token: must be 16 to 256 printable ASCII characters without blanks (got 5)"),
    ({"token": "a token with blanks in it"}, "web.token: must be 16 to 256 printable ASCII characters"),
    ({"allow_remote_play": "yes"}, 'web.allow_remote_play: must be true or false (got "yes")'),
    ({"max_connections": 0}, "web.max_connections: must be between 1 and 10000 (got 0)"),
    ({"messages_per_second": float("nan")}, "web.messages_per_second: must be a finite number (got nan)"),
    ({"beat_seconds": 0}, "web.beat_seconds: must be at least 0.1 and at most 60 (got 0)"),
    ({"prot": 8080}, "web.prot: unknown key"),
])
def test_every_key_is_checked_and_an_error_names_it(data, error):
    with pytest.raises(ConfigError) as refused:
        parse_web(data, "roseking.toml")
    assert str(refused.value).startswith(f"roseking.toml: {error}")


@pytest.mark.parametrize("address, host, port, loopback", [
    ("8080", "127.0.0.1", 8080, True),
    ("0", "127.0.0.1", 0, True),
    ("localhost:81", "localhost", 81, True),
    ("0.0.0.0:8080", "0.0.0.0", 8080, False),
    ("[::1]:8080", "::1", 8080, True),
    ("[::]:8080", "::", 8080, False),
])
def test_the_command_line_names_the_address(address, host, port, loopback):
    s = with_address(WebSettings(token=TOKEN), address)
    assert (s.host, s.port, s.loopback) == (host, port, loopback)


@pytest.mark.parametrize("address", ["0.0.0.0:8080", "[::]:8080", "192.168.1.20:80"])
def test_a_page_on_the_network_without_a_token_is_refused_saying_how_to_make_one(address):
    with pytest.raises(UsageError) as refused:
        with_address(WebSettings(), address)
    assert str(refused.value).startswith(f"--web {address}: a page on the network needs the operator's token: "
                                         "set [web] token in the configuration (make one with python3 -c")
    with pytest.raises(ConfigError) as refused:
        parse_web({"host": address.rpartition(":")[0].strip("[]"), "port": 8080}, "table.toml")
    assert str(refused.value).startswith("table.toml: web.token: a page on the network needs the operator's token: "
                                         "set it (make one with python3 -c")
    assert parse_web({"host": "0.0.0.0"}).port is None         # not served: nothing to refuse


def test_play_on_the_network_without_a_token_starts_nothing(capsys, tmp_path):
    assert_user_error(*run(capsys, "play", "--sim", "--web", "0.0.0.0:0", "--data-dir", str(tmp_path / "data")),
                      "--web 0.0.0.0:0: a page on the network needs the operator's token")
    assert not (tmp_path / "data").exists()


def test_the_names_and_the_proxies_are_checked():
    s = parse_web({"hostnames": ["table.museum.example", "roseking"], "trusted_proxies": ["127.0.0.1", "10.0.0.5/32",
                                                                                        "::1"]})
    assert s.hostnames == ("table.museum.example", "roseking") and s.trusted_proxies == ("127.0.0.1", "10.0.0.5", "::1")
    for data, error in (({"hostnames": "table.museum.example"}, "web.hostnames: must be a list of host names"),
                        ({"hostnames": ["Table.Museum"]}, "web.hostnames: must be host names"),
                        ({"hostnames": ["evil.example/x"]}, "web.hostnames: must be host names"),
                        ({"trusted_proxies": ["proxy.local"]}, "web.trusted_proxies: must be the proxies' IP"),
                        ({"trusted_proxies": ["10.0.0.0/24"]},
                         "web.trusted_proxies: must be the proxies' own addresses, not a network (got '10.0.0.0/24'"),
                        ({"trusted_proxies": ["0.0.0.0/0"]}, "web.trusted_proxies: must be the proxies' own")):
        with pytest.raises(ConfigError) as refused:
            parse_web(data, "t.toml")
        assert str(refused.value).startswith(f"t.toml: {error}")


@pytest.mark.parametrize("address", ["", "80800", "host:80", ":", "8080:", "-1", "1.2.3.4.5:80"])
def test_a_bad_address_is_refused(address):
    with pytest.raises(UsageError) as refused:
        with_address(WebSettings(), address)
    assert str(refused.value).startswith(f"--web {address}: ")


def test_play_with_a_bad_or_taken_address_says_so_before_anything_starts(capsys, tmp_path):
    assert_user_error(*run(capsys, "play", "--sim", "--web", "99999", "--data-dir", str(tmp_path)),
                      "--web 99999: the port must be a number from 0 to 65535")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert_user_error(*run(capsys, "play", "--sim", "--web", str(port), "--data-dir", str(tmp_path)),
                          f"--web: cannot listen on 127.0.0.1:{port}")
    assert not (tmp_path / "current-game.json").exists()


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_config_check_says_where_the_page_is_served(capsys, tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('backend = "sim"\n[web]\nhost = "0.0.0.0"\nport = 8080\nallow_naming = true\n'
                    f'token = "{TOKEN}"\nhostnames = ["table.museum.example"]\ntrusted_proxies = ["127.0.0.1"]\n')
    rc, out, err = run(capsys, "config", "check", str(path))
    assert rc == 0 and err == ""
    assert "web: 0.0.0.0 port 8080 (the network), an operator's token set" in out
    assert "naming by anyone at the page" in out
    assert "answers to this machine's names and addresses, table.museum.example; behind the proxies 127.0.0.1" in out
