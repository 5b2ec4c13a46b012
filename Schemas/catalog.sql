-- The station catalogue in the original apps' schema (Schemas/domain-rules.md §6–§11), as `oritsubushi catalog
-- import` leaves it in <ledger>/catalog.sqlite. The DDL below is byte for byte what the original
-- dumps (stations-NNN.sql) create; column order matters because the dumps insert positionally.
-- PRAGMA user_version holds the applied catalogue version, as in the iOS app.

CREATE TABLE IF NOT EXISTS "lines" ("l_id" INTEGER PRIMARY KEY  NOT NULL , "line" TEXT NOT NULL , "o_id" INTEGER NOT NULL , "enabled" INTEGER NOT NULL  DEFAULT 1, "l_type" INTEGER);
CREATE TABLE IF NOT EXISTS "operators" ("o_id" INTEGER PRIMARY KEY  NOT NULL , "operator" TEXT NOT NULL , "type" INTEGER NOT NULL , "enabled" INTEGER NOT NULL  DEFAULT 1);
CREATE TABLE IF NOT EXISTS "stations" ("s_id" INTEGER PRIMARY KEY  NOT NULL , "station" TEXT NOT NULL , "yomi" TEXT NOT NULL , "wiki" TEXT NOT NULL , "pref" INTEGER NOT NULL , "address" TEXT NOT NULL , "lat" INTEGER NOT NULL , "lng" INTEGER NOT NULL , "o_id" INTEGER NOT NULL , "enabled" INTEGER NOT NULL  DEFAULT 1, "weight" INTEGER NOT NULL  DEFAULT 0);
CREATE TABLE IF NOT EXISTS "stations_lines" ("l_id" INTEGER NOT NULL , "s_id" INTEGER NOT NULL , "s_sort" INTEGER NOT NULL );

CREATE INDEX IF NOT EXISTS "lines_enabled_index" ON "lines" ("enabled" ASC);
CREATE INDEX IF NOT EXISTS "lines_line_index" ON "lines" ("line" ASC);
CREATE INDEX IF NOT EXISTS "lines_o_index" ON "lines" ("o_id" ASC);
CREATE INDEX IF NOT EXISTS "operators_enabled_index" ON "operators" ("enabled" ASC);
CREATE INDEX IF NOT EXISTS "operators_type_index" ON "operators" ("type" ASC);
CREATE INDEX IF NOT EXISTS "station_lat_index" ON "stations" ("lat" ASC);
CREATE INDEX IF NOT EXISTS "station_lng_index" ON "stations" ("lng" ASC);
CREATE INDEX IF NOT EXISTS "station_pref_index" ON "stations" ("pref" ASC);
CREATE INDEX IF NOT EXISTS "station_operator_index" ON "stations" ("o_id" ASC);
CREATE INDEX IF NOT EXISTS "stations_lines_l_index" ON "stations_lines" ("l_id" ASC);
CREATE INDEX IF NOT EXISTS "stations_lines_s_index" ON "stations_lines" ("s_id" ASC);
CREATE UNIQUE INDEX IF NOT EXISTS "stations_lines_unique_index" ON "stations_lines" ("l_id" ASC, "s_id" ASC);
CREATE INDEX IF NOT EXISTS "stations_station_index" ON "stations" ("station" ASC);
-- Sic: the original index of this name is built on lines.l_type.
CREATE INDEX IF NOT EXISTS "stations_weight_index" ON "lines" ("l_type" ASC);
CREATE INDEX IF NOT EXISTS "stations_yomi_index" ON "stations" ("yomi" ASC);

-- The original user table. In this project it lives in <ledger>/projection.sqlite (the
-- completions projection, Schemas/projection.md), not in catalog.sqlite: the dumps'
-- `CREATE TABLE ... "completions"` statement is skipped and their completions statements run
-- against a temporary copy (see "Carry-overs" in Schemas/projection.md).
CREATE TABLE IF NOT EXISTS "completions" ("s_id" INTEGER PRIMARY KEY  NOT NULL ,"comp_date" INTEGER NOT NULL  DEFAULT (0) ,"update_date" INTEGER NOT NULL  DEFAULT (0) ,"memo" TEXT);

-- Ledger bookkeeping in catalog.sqlite (not part of the original schema): every carry-over
-- statement of the dumps that an import evaluated, so that it is evaluated once and never
-- again. `source` is the id written in the dump, `applied_source` the id actually used (they
-- differ only for the corrected 306029 typo), `version` the import that evaluated it, `fired`
-- whether it moved a completion.
CREATE TABLE IF NOT EXISTS carryovers (target INTEGER NOT NULL, source INTEGER NOT NULL, applied_source INTEGER NOT NULL, version INTEGER NOT NULL, fired INTEGER NOT NULL, PRIMARY KEY (target, source));
