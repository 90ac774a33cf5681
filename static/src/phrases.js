// CodeMirror's own interface words (fold markers, the search panel, go to line) in the page's language.
// CodeMirror looks each English phrase up in EditorState.phrases; a page in Korean
// (<html lang="ko">) gets these, any other page keeps CodeMirror's English.
import { EditorState } from "@codemirror/state";

const KO = {
  "Fold line": "줄 접기",
  "Unfold line": "줄 펼치기",
  "folded code": "접힌 코드",
  "unfold": "펼치기",
  "Folded lines": "줄을 접었습니다",
  "Unfolded lines": "줄을 펼쳤습니다",
  "Find": "찾기",
  "Replace": "바꾸기",
  "next": "다음",
  "previous": "이전",
  "all": "모두",
  "match case": "대소문자 구분",
  "regexp": "정규식",
  "by word": "단어 단위",
  "replace": "바꾸기",
  "replace all": "모두 바꾸기",
  "close": "닫기",
  "current match": "현재 일치 항목",
  "replaced $ matches": "$개를 바꿨습니다",
  "replaced match on line $": "$번째 줄의 일치 항목을 바꿨습니다",
  "on line": "줄",
  "Go to line": "줄로 이동",
  "go": "이동",
  "Selection deleted": "선택 영역을 삭제했습니다",
  "Control character": "제어 문자",
  "Completions": "자동 완성",
};

/** The phrases extension for a page language such as document.documentElement.lang ("ko", "en"):
 * Korean phrases for "ko" or "ko-KR", none (CodeMirror's English) for anything else. */
export function editorPhrases(lang) {
  return String(lang || "").toLowerCase().startsWith("ko") ? [EditorState.phrases.of(KO)] : [];
}
