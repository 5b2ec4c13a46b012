INSERT INTO "stations" VALUES(1,'a
multi-line
literal','x','',13);
INSERT INTO t VALUES("",'it''s');

   
UPDATE t SET a = 1
