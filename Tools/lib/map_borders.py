"""Japan's prefecture borders for the phone app's base map, read by Tools/map-geography: the land
boundaries that two prefectures share, from the outlines in the PyPI package japanmap 0.6.0 (Saito
Tsutomu, Apache-2.0). The coast is not taken from it: the base map's coast is GSHHG's. The format
the borders are stored in is Schemas/phone-app.md "The base map"; why this source and how good it
is: docs/phone-app.md "The base map".

japanmap's file japanmap/japan.json is [points, areas]: points[i] = [[lng, lat], n] (n: how many
prefectures share the point), areas[k] = the outline of prefecture k + 1's area holding its capital,
a cycle of runs [neighbour, [point indices…]], neighbour 0 for the sea. A run with a neighbour is a
border, listed by both prefectures (reversed in the other's list); it is taken once.
"""
import hashlib
import json
import math
import os
import subprocess
import sys
import zipfile

VERSION = "0.6.0"
WHEEL = f"japanmap-{VERSION}-py3-none-any.whl"
# The wheel PyPI serves for japanmap 0.6.0; another file is refused, so that the same input always
# gives the same bytes.
WHEEL_SHA256 = "71a7d3756cb1d438d9f2731660801548bc8b1b5e8b8fcb4dacc8b29300282056"
# A border's end on the coast is moved to the nearest point of GSHHG's coast when that is this
# close (metres); japanmap's coast points lie a median 150 m from GSHHG's (p99 2.3 km).
SNAP_MAX_M = 3000
METRES_PER_DEGREE = 111_195.0

NOTICE = f"""geo/LICENSE-japanmap.txt: the source and licence of the prefecture borders in
geo/japan.json, the base map of the phone app of Oritsubushi Ledger (降りつぶし).

The borders between Japan's prefectures are derived from the prefecture outlines of the Python
package japanmap {VERSION} on PyPI (the file japanmap/japan.json of its wheel
{WHEEL}, sha256
{WHEEL_SHA256}), Copyright 2022 Saito Tsutomu,
licensed under the Apache License, Version 2.0, whose text, as the wheel ships it, follows. The
package does not say where its outlines come from; their coordinates are on the old Tokyo Datum.

Changes: Tools/map-geography in the project's repository took from the outlines only the runs two
prefectures share (not the coast, which comes from GSHHG: geo/LICENSE.txt), moved every point from
the Tokyo Datum to WGS 84 with the usual linear approximation for Japan, moved each border's end on
the coast to the nearest point of GSHHG's coastline within {SNAP_MAX_M:,} m, simplified the borders
with Douglas-Peucker at 2,000, 400 and 80 m, rounded the coordinates to 1e-4 degree and wrote them
as JSON into geo/japan.json (the format is Schemas/phone-app.md "The base map").

"""


def fetch_wheel(cache):
    """The japanmap wheel, downloaded from PyPI with pip into `cache` the first time; exits 69 when
    pip cannot get it and 65 when the file is not the one pinned."""
    path = os.path.join(cache, WHEEL)
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                   "--only-binary=:all:", "--ignore-requires-python", "-d", cache, f"japanmap=={VERSION}"]
        if subprocess.run(command).returncode != 0 or not os.path.exists(path):
            print(f"map-geography: pip could not download japanmap {VERSION} from PyPI (apt-get install python3-pip)", file=sys.stderr)
            sys.exit(69)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != WHEEL_SHA256:
        print(f"map-geography: {path} has sha256 {digest}, not japanmap {VERSION}'s {WHEEL_SHA256}", file=sys.stderr)
        sys.exit(65)
    return path


def read_wheel(path):
    """japanmap's (points, areas) and its licence text."""
    with zipfile.ZipFile(path) as wheel:
        points, areas = json.loads(wheel.read("japanmap/japan.json"))
        licence = wheel.read(f"japanmap-{VERSION}.dist-info/licenses/LICENSE").decode("utf-8")
    return points, areas, licence


def tokyo_to_wgs84(lng, lat):
    """A point on the Tokyo Datum on WGS 84 (equal to JGD2000 at this scale), by the linear
    approximation in common use for Japan. japanmap's coast points, so moved, lie a median 150 m
    from GSHHG's coast instead of 350 m, in every region from Okinawa to Hokkaido."""
    return (lng - 0.000046038 * lat - 0.000083043 * lng + 0.010040,
            lat - 0.00010695 * lat + 0.000017464 * lng + 0.0046017)


def border_runs(points, areas):
    """The borders once each, in japanmap's order of prefecture codes: (codes, the lower first;
    points as (lng, lat) micro-degrees on WGS 84, [start on the coast, end on the coast])."""
    out = []
    for k, runs in enumerate(areas):
        code = k + 1
        for i, (neighbour, indices) in enumerate(runs):
            if neighbour <= code:
                continue
            line = []
            for index in indices:
                lng, lat = tokyo_to_wgs84(*points[index][0])
                line.append((round(lng * 1e6), round(lat * 1e6)))
            # An end is on the coast where the run beside it, in either prefecture's outline, is the
            # sea's; otherwise three prefectures meet there.
            mirror = next(j for j, (n, ix) in enumerate(areas[neighbour - 1]) if n == code and ix == indices[::-1])
            theirs = areas[neighbour - 1]
            at_sea = [runs[i - 1][0] == 0 or theirs[(mirror + 1) % len(theirs)][0] == 0,
                      runs[(i + 1) % len(runs)][0] == 0 or theirs[mirror - 1][0] == 0]
            out.append(((code, neighbour), line, at_sea))
    return out


def nearest_on_segments(point, segments):
    """The point of the segments nearest to `point` (micro-degrees), and its distance in metres."""
    kx = math.cos(math.radians(point[1] / 1e6)) * METRES_PER_DEGREE / 1e6
    ky = METRES_PER_DEGREE / 1e6
    best = (math.inf, point)
    for (ax, ay), (bx, by) in segments:
        ux, uy = (ax - point[0]) * kx, (ay - point[1]) * ky
        vx, vy = (bx - ax) * kx, (by - ay) * ky
        length2 = vx * vx + vy * vy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, -(ux * vx + uy * vy) / length2))
        distance = math.hypot(ux + t * vx, uy + t * vy)
        if distance < best[0]:
            best = (distance, (round(ax + t * (bx - ax)), round(ay + t * (by - ay))))
    return best[1], best[0]


def snap_to_coast(runs, coast_rings):
    """Each border's ends on the coast moved onto GSHHG's coast (rings in micro-degrees), so that
    a border neither stops short of the shore nor runs into the sea."""
    cell = 50_000  # 0.05°, wider than SNAP_MAX_M
    ends = [line[0 if side == 0 else -1] for _, line, at_sea in runs for side in (0, 1) if at_sea[side]]
    wanted = {(x // cell + dx, y // cell + dy) for x, y in ends for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    near = {}
    for ring in coast_rings:
        for a, b in zip(ring, ring[1:]):
            for key in {(a[0] // cell, a[1] // cell), (b[0] // cell, b[1] // cell)} & wanted:
                near.setdefault(key, []).append((a, b))
    out = []
    for codes, line, at_sea in runs:
        line = list(line)
        for side in (0, 1):
            if not at_sea[side]:
                continue
            end = line[0 if side == 0 else -1]
            x, y = end[0] // cell, end[1] // cell
            candidates = [s for dx in (-1, 0, 1) for dy in (-1, 0, 1) for s in near.get((x + dx, y + dy), [])]
            snapped, distance = nearest_on_segments(end, candidates)
            if distance <= SNAP_MAX_M:
                line[0 if side == 0 else -1] = snapped
        out.append(line)
    return out


def borders(cache, coast_rings):
    """The prefecture borders as lines of (lng, lat) micro-degrees, and the text of
    geo/LICENSE-japanmap.txt."""
    points, areas, licence = read_wheel(fetch_wheel(cache))
    return snap_to_coast(border_runs(points, areas), coast_rings), NOTICE + licence
