CREATE TABLE t (a);
INSERT INTO t VALUES('unterminated
