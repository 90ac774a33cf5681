"""The CLI's words in English and Korean, chosen from the environment like any Unix tool.

`language()` reads WARPDRILL_LANG, then LC_ALL, LC_MESSAGES and LANG (the first one set wins): a value
starting with "ko" (ko_KR.UTF-8) gives Korean, anything else English. The verdict and status labels are
the site's own (problems/templatetags/warpdrill.py and its Korean catalogue), so that the terminal and
the web page say the same thing.
"""
from __future__ import annotations

import os

LANGUAGES = ("en", "ko")

MESSAGES: dict[str, dict[str, str]] = {
    # Labels the site shows (verdicts, statuses, diagnostic kinds)
    "ACCEPTED": {"en": "Accepted", "ko": "정답"},
    "WRONG_ANSWER": {"en": "Wrong answer", "ko": "오답"},
    "COMPILE_ERROR": {"en": "Compile error", "ko": "컴파일 오류"},
    "RUNTIME_ERROR": {"en": "Runtime error", "ko": "실행 오류"},
    "TIME_LIMIT": {"en": "Time limit", "ko": "시간 초과"},
    "DEADLOCK": {"en": "Deadlock", "ko": "교착 상태"},
    "SYNC_ERROR": {"en": "Sync error", "ko": "동기화 오류"},
    "MEMORY_ERROR": {"en": "Memory error", "ko": "메모리 오류"},
    "INTERNAL_ERROR": {"en": "Not graded (platform error)", "ko": "채점 안 됨 (플랫폼 오류)"},
    "NOT_RUN": {"en": "Not run", "ko": "실행 안 됨"},
    "QUEUED": {"en": "Queued", "ko": "대기 중"},
    "COMPILING": {"en": "Compiling", "ko": "컴파일 중"},
    "RUNNING": {"en": "Running", "ko": "실행 중"},
    "CHECKING": {"en": "Checking", "ko": "검사 중"},
    "RETRYING": {"en": "Not graded, retrying", "ko": "채점 안 됨, 다시 시도 중"},
    "GRADED": {"en": "Graded", "ko": "채점 완료"},
    "divergent_barrier": {"en": "Divergent barrier", "ko": "분기된 배리어"},
    "warp_mask": {"en": "Warp mask mismatch", "ko": "warp mask 불일치"},
    "race": {"en": "Data race", "ko": "경쟁 상태"},
    "deadlock": {"en": "Deadlock", "ko": "교착 상태"},
    "out_of_bounds": {"en": "Out of bounds", "ko": "범위 밖 접근"},
    "misaligned": {"en": "Misaligned access", "ko": "정렬되지 않은 접근"},
    "timeout": {"en": "Timeout", "ko": "시간 초과"},
    "launch_error": {"en": "Launch error", "ko": "Launch 오류"},
    "cuda_error": {"en": "CUDA error", "ko": "CUDA 오류"},
    "stack_overflow": {"en": "Stack overflow", "ko": "스택 오버플로"},
    "uninitialized": {"en": "Uninitialized read", "ko": "초기화되지 않은 값 읽기"},
    "note": {"en": "Note", "ko": "참고"},
    # The CLI's own sentences
    "username": {"en": "Username: ", "ko": "사용자 이름: "},
    "password": {"en": "Password: ", "ko": "비밀번호: "},
    "logged_in": {"en": "Logged in to {url} as {username}; token saved in {path} (mode 0600).",
                  "ko": "{url}에 {username}(으)로 로그인했습니다. 토큰을 {path}에 저장했습니다 (권한 0600)."},
    "logged_out": {"en": "Logged out: the stored token is deleted.", "ko": "로그아웃했습니다: 저장된 토큰을 지웠습니다."},
    "not_logged_in_before": {"en": "There was no stored login.", "ko": "저장된 로그인이 없었습니다."},
    "bad_url": {"en": "Not a site URL: {url}", "ko": "사이트 URL이 아닙니다: {url}"},
    "not_logged_in": {"en": "Not logged in: run `warpdrill login URL` first.",
                      "ko": "로그인되어 있지 않습니다: 먼저 `warpdrill login URL`을 실행하세요."},
    "token_refused": {"en": "The site refused the stored token ({message}): run `warpdrill login URL` again.",
                      "ko": "사이트가 저장된 토큰을 거부했습니다 ({message}): `warpdrill login URL`을 다시 실행하세요."},
    "login_failed": {"en": "Login failed: {message}", "ko": "로그인 실패: {message}"},
    "network": {"en": "Cannot reach the site: {message}", "ko": "사이트에 연결할 수 없습니다: {message}"},
    "refused": {"en": "The site refused the request (HTTP {status}): {message}",
                "ko": "사이트가 요청을 거부했습니다 (HTTP {status}): {message}"},
    "retry_after": {"en": "Try again in {seconds} s.", "ko": "{seconds}초 후에 다시 시도하세요."},
    "no_problems": {"en": "No problems are published.", "ko": "공개된 문제가 없습니다."},
    "problems_header": {"en": "{count} problems", "ko": "문제 {count}개"},
    "col_slug": {"en": "slug", "ko": "슬러그"},
    "col_title": {"en": "title", "ko": "제목"},
    "col_topic": {"en": "topic", "ko": "주제"},
    "col_level": {"en": "level", "ko": "난이도"},
    "saved_problem": {"en": "Saved {slug} in {folder}: {files}.", "ko": "{slug}을(를) {folder}에 저장했습니다: {files}."},
    "kept_file": {"en": "Kept your {path} (use --force to overwrite it with the starter).",
                  "ko": "기존 {path}은(는) 그대로 두었습니다 (시작 코드로 덮어쓰려면 --force)."},
    "cannot_read": {"en": "Cannot read {path}: {message}", "ko": "{path}을(를) 읽을 수 없습니다: {message}"},
    "cannot_write": {"en": "Cannot write {path}: {message}", "ko": "{path}에 쓸 수 없습니다: {message}"},
    "submitted": {"en": "Submitted #{id} ({problem}): {html_url}", "ko": "#{id} 제출 ({problem}): {html_url}"},
    "not_watching": {"en": "Not waiting for the verdict: `warpdrill status {id} --watch` shows it.",
                     "ko": "채점 결과를 기다리지 않습니다: `warpdrill status {id} --watch`로 볼 수 있습니다."},
    "progress": {"en": "{status} ({done}/{total} tests)", "ko": "{status} (테스트 {done}/{total})"},
    "watch_timeout": {"en": "No verdict after {seconds} s; the submission is still {status}: {html_url}",
                      "ko": "{seconds}초 동안 채점 결과가 없습니다. 제출은 아직 {status} 상태입니다: {html_url}"},
    "interrupted": {"en": "Stopped waiting; the submission is graded all the same: {html_url}",
                    "ko": "기다리기를 멈췄습니다. 제출은 그대로 채점됩니다: {html_url}"},
    "verdict": {"en": "Verdict: {verdict}", "ko": "결과: {verdict}"},
    "tests": {"en": "Tests:", "ko": "테스트:"},
    "hidden": {"en": "hidden", "ko": "비공개"},
    "sample": {"en": "sample", "ko": "예제"},
    "mismatch": {"en": "    {output}[{index}]: expected {expected}, got {got} ({count} elements differ)",
                 "ko": "    {output}[{index}]: 기댓값 {expected}, 결과 {got} (다른 원소 {count}개)"},
    "allowed": {"en": "    difference {error}, allowed {allowed}", "ko": "    차이 {error}, 허용 {allowed}"},
    "diagnostics": {"en": "Diagnostics:", "ko": "진단:"},
    "compiler": {"en": "Compiler:", "ko": "컴파일러:"},
    "line": {"en": "line {line}", "ko": "{line}번째 줄"},
    "on_test": {"en": "test {test}", "ko": "테스트 {test}"},
    "output_log": {"en": "    printf output:", "ko": "    printf 출력:"},
    "details": {"en": "Details: {html_url}", "ko": "자세히: {html_url}"},
}


def language(environ: dict[str, str] | None = None) -> str:
    """"ko" or "en" from WARPDRILL_LANG, LC_ALL, LC_MESSAGES, LANG (the first non-empty one)."""
    env = os.environ if environ is None else environ
    for name in ("WARPDRILL_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "ko" if value.lower().startswith("ko") else "en"
    return "en"


class Translator:
    """`t(key, **params)`: the message `key` in `lang`, formatted; an unknown key is returned as it is
    (a verdict or kind this version of the CLI does not know is shown by its name)."""

    def __init__(self, lang: str = "en"):
        self.lang = lang if lang in LANGUAGES else "en"

    def __call__(self, key: str, **params) -> str:
        entry = MESSAGES.get(key)
        if entry is None:
            return key
        return entry[self.lang].format(**params) if params else entry[self.lang]
