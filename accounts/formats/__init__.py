"""Django's format modules for English and Korean (settings.FORMAT_MODULE_PATH): a datetime that a
template prints without the `when` filter, and the admin's lists, read as the `when` filter writes
(accounts/core/times.py), "2026-12-05 20:08 KST", not "Dec. 5, 2026, 8:08 p.m." or "2026년 12월 5일
8:08 오후". Only the datetime formats are set; dates and numbers keep Django's formats per language.
"""
