-- A small station catalogue written for the oritsubushi demo, in the original dump format: five real lines (JR East Yamanote, JR Central Sangu, Tokyu Setagaya, Enoshima Electric, Ise Railway) and their stations, taken from catalogue version 176.
CREATE TABLE IF NOT EXISTS "lines" ("l_id" INTEGER PRIMARY KEY  NOT NULL , "line" TEXT NOT NULL , "o_id" INTEGER NOT NULL , "enabled" INTEGER NOT NULL  DEFAULT 1, "l_type" INTEGER);
INSERT OR IGNORE INTO "lines" VALUES(12083,'山手線',10102,1,2);
INSERT OR IGNORE INTO "lines" VALUES(13007,'参宮線',10103,1,2);
INSERT OR IGNORE INTO "lines" VALUES(5006021,'世田谷線',50060,1,7);
INSERT OR IGNORE INTO "lines" VALUES(31400101,'江ノ島電鉄線',314001,1,12);
INSERT OR IGNORE INTO "lines" VALUES(32400201,'伊勢線',324002,1,12);
CREATE TABLE IF NOT EXISTS "operators" ("o_id" INTEGER PRIMARY KEY  NOT NULL , "operator" TEXT NOT NULL , "type" INTEGER NOT NULL , "enabled" INTEGER NOT NULL  DEFAULT 1);
