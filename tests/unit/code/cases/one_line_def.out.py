def f(): """Return one."""; return 1
