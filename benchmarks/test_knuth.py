"""The tooling of ``benchmarks.knuth`` and its report table, without Knuth's binaries:
his reports as the timed builds print them, parsed; the table made from a saved run."""

from __future__ import annotations

import math

import pytest

from benchmarks import knuth, report

DLX2 = (  # dlx2t v1 m0 < xcc_latin4.dlx: DLX2's mems have a part taken back (-316224)
    "Altogether 576 solutions, 32905+1969755-316224 mems, 115897 updates, 21264 cleansings, "
    "19264 bytes, 4873 nodes, ccost 2%.\n"
    "dlx2-time: input 142.5 us, search 830.7 us; cpu: input 129.5 us, search 832.7 us\n"
)
DLX6 = (  # dlx6t v1 m0 < domino_14x14.dlx: "search nodes", a count modulo 2**64
    "Altogether 9111319734685071488 solutions, 111237+189134426 mems, 1839718 updates, "
    "0 cleansings, 15190656 bytes, 385185 search nodes, 383197 ZDD nodes, 1826+268949 "
    "signatures, 114411 hits.\n"
    "dlx6-time: input 307.9 us, search 1152463.3 us; cpu: input 302.9 us, search 1152352.0 us\n"
)


def test_totals_of_dlx2_and_dlx6() -> None:
    assert knuth.parse_dlx1(DLX2) == (576, 4873, 115_897)
    assert knuth.parse_dlx1(DLX6) == (9_111_319_734_685_071_488, 385_185, 1_839_718)
    assert 112_202_208_776_036_178_000_000 % 2**64 == 9_111_319_734_685_071_488


def test_times_in_seconds() -> None:
    times = knuth.parse_times(DLX2)
    assert times is not None
    assert times.search_cpu_s == pytest.approx(832.7e-6)
    assert times.input_s == pytest.approx(142.5e-6)
    assert knuth.parse_times(DLX2.splitlines()[0]) is None  # an untimed build


def test_default_program_follows_anchors(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("ANCHORS", str(tmp_path))
    assert knuth.default_program("dlx3") == tmp_path / "knuth" / "build" / "dlx3t"


def test_report_tabulates_the_runs_against_knuth() -> None:
    info = dict(solver="dlx-numba", knuth="dlx3t", file="mcc_rowcol6_2", rounds=5, cpu_s=5e-3,
                wall_s=5.1e-3, knuth_search_cpu_s=8e-3, knuth_search_s=8.2e-3,
                knuth_process_s=9.3e-3, ratio_cpu=0.625, ratio_wall=5.1 / 8.2, load=1.5)
    data = {"benchmarks": [
        {"name": "a", "group": "knuth-dlx3-mcc_rowcol6_2", "stats": {"median": 5.1e-3},
         "extra_info": info},
        {"name": "b", "group": "g", "stats": {"median": 1.0}, "extra_info": {}},
    ]}
    versus = report.load_versus(data)
    assert [row.file for row in versus] == ["mcc_rowcol6_2"]
    assert math.isclose(versus[0].ratio_cpu, 0.625)
    text = report.markdown(report.load_rows(data), versus=versus)
    assert "| dlx3t | mcc_rowcol6_2 (dlx-numba) | 5 ms | 8 ms | 0.62x |" in text
    assert "Against Knuth's programs" not in report.markdown(report.load_rows(data))
