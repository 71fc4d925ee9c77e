"""The table's status (`firmware_py.table.status`): what it counts from the loop and its log, on a fake
clock and a fake time of day; and on a real table service (the Rig) as it plays."""
import datetime
import json

from firmware_py.table.game import Mode, Setup
from firmware_py.table.state import TableState
from firmware_py.table.status import ERRORS_KEPT, FPS_WINDOW_SECONDS, StatusCollector
from hardware.frame import Frame
from table_kit import Rig

NOON = datetime.datetime(2026, 12, 1, 12, 0).timestamp()


class Clock:
    def __init__(self, now=0.0):
        self.now = now

    def __call__(self):
        return self.now


def collector(tmp_path, clock, wall, forward=None):
    return StatusCollector(str(tmp_path), "sim", forward or (lambda line: None), clock=clock, wall=wall)


def test_frames_are_counted_once_each_and_per_second_over_the_recent_past(tmp_path):
    clock = Clock()
    status = collector(tmp_path, clock, lambda: NOON)
    state = TableState("play", "humans", number=1)
    for k in range(40):                         # 40 new frames in 4 s, each shown twice (a change of state)
        clock.now = k * 0.1
        frame = Frame.solid((k, 0, 0))
        status.show(frame, state)
        status.show(frame, TableState("play", "humans", number=1, moves=k))
    clock.now = 4.0
    s = status.status()
    assert s.frames == 40 and s.frames_per_second == 10.0
    clock.now = 4.0 + FPS_WINDOW_SECONDS + 1
    assert status.status().frames_per_second == 0.0 and status.status().frames == 40


def test_games_started_and_finished_today_and_a_new_day_counts_from_nought(tmp_path):
    wall = Clock(NOON)
    status = collector(tmp_path, Clock(), wall)
    status.show(Frame(), TableState("play", "demo", number=1))
    status.show(Frame(), TableState("play", "demo", number=1, moves=3))
    status.show(Frame(), TableState("over", "demo", number=1, moves=80))
    status.show(Frame(), TableState("over", "demo", number=1, moves=80))
    status.show(Frame(), TableState("play", "demo", number=2))
    status.show(Frame(), TableState("play", "humans", number=3, moves=12))     # resumed: started before
    s = status.status()
    assert (s.today, s.games_started, s.games_finished, s.mode) == ("2026-12-01", 2, 1, "humans")
    wall.now = NOON + 86400
    s = status.status()
    assert (s.today, s.games_started, s.games_finished) == ("2026-12-02", 0, 0)


def test_the_last_log_lines_are_kept_with_their_time_and_handed_on(tmp_path):
    forwarded = []
    status = collector(tmp_path, Clock(), lambda: NOON, forwarded.append)
    for k in range(ERRORS_KEPT + 5):
        status.log(f"roseking: failure {k}")
    status.note("roseking: the table in a browser: http://127.0.0.1:8080/")
    s = status.status()
    assert [line for _, line in s.errors] == [f"roseking: failure {k}" for k in range(5, ERRORS_KEPT + 5)]
    assert len(forwarded) == ERRORS_KEPT + 6 and forwarded[-1].endswith("8080/")
    assert s.errors[0][0] == NOON


def test_the_status_is_plain_data_and_says_when_the_data_directory_cannot_be_read(tmp_path):
    status = collector(tmp_path / "gone", Clock(), lambda: NOON)
    s = status.status()
    assert s.free_bytes is None and s.mode == "starting"
    assert json.loads(json.dumps(s.to_dict()))["errors"] == []
    assert collector(tmp_path, Clock(), lambda: NOON).status().free_bytes > 0


def test_a_playing_table_s_status(tmp_path):
    rig = Rig(tmp_path)
    status = StatusCollector(str(tmp_path), "sim", clock=rig.time.clock)
    rig.loop.receivers.append(status)
    try:
        game = rig.start(Setup(Mode.HUMANS, seed=7))
        rig.play(game.pos.legal_moves()[0])
        rig.wait(1.0)
        s = status.status()
        assert (s.mode, s.screen, s.games_started, s.games_finished) == ("humans", "play", 1, 0)
        assert s.frames == len(rig.frames) and s.frames_per_second > 0
    finally:
        rig.close()
