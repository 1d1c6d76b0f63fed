// Search in languages written without spaces (words segmented by Intl.Segmenter), beside spaced ones.
import { approximateBytes, SearchIndex, type PageInput } from "./search-index";
import { infixBytes, SpaceIndex, wordsOf } from "./space-index";

const pages: PageInput[] = [
  { id: "zh", title: "网关配置", path: "zh", markdown: "本页介绍如何安装和配置网关的地址。" },
  { id: "ja", title: "インストール手順", path: "ja", markdown: "ゲートウェイをインストールする手順を説明します。設定ファイルを編集してください。" },
  { id: "th", title: "การติดตั้ง", path: "th", markdown: "ติดตั้งเกตเวย์บนเซิร์ฟเวอร์ของคุณ" },
  { id: "ko", title: "설치 안내", path: "ko", markdown: "게이트웨이 설치 방법을 설명합니다." },
  { id: "de", title: "Datenbank", path: "de", markdown: "Die Datenbank Verbindung wird beim Start geprüft." },
  { id: "en", title: "Gateway", path: "en", markdown: "Install the gateway and configure its address." },
];

function search(query: string): string[] {
  const index = new SearchIndex();
  index.indexRevision("space", "rev", pages);
  return index.search(query, { spaceIds: ["space"] }).map((hit) => hit.id);
}

describe("search in every language", () => {
  test("Chinese, Japanese and Thai pages are found by a word inside a run without spaces", () => {
    expect(search("网关")).toEqual(["zh"]);
    expect(search("安装")).toEqual(["zh"]);
    expect(search("地址")).toEqual(["zh"]);
    expect(search("インストール")).toEqual(["ja"]);
    expect(search("設定")).toEqual(["ja"]);
    expect(search("เซิร์ฟเวอร์")).toEqual(["th"]);
    expect(search("เกตเวย์")).toEqual(["th"]);
  });

  test("Korean and German words separated by spaces, and English, are found as before", () => {
    expect(search("설치")).toEqual(["ko"]);
    expect(search("Verbindung")).toEqual(["de"]);
    expect(search("gateway")).toEqual(["en"]);
  });

  test("a word of another page is not found, and a run is not one token any more", () => {
    expect(search("网络")).toEqual([]);
    expect(wordsOf("配置网关的地址")).not.toEqual(["配置网关的地址"]);
    expect(wordsOf("配置网关的地址").join("")).toBe("配置网关的地址");
    expect(wordsOf("Install the gateway, then 配置。")).toEqual(["Install", "the", "gateway", "then", "配置"]);
  });
});

// Words written inside longer ones: Korean particles and endings attached to the stem (설치를, 설치하기), Korean and
// German compounds (게이트웨이설정, Installationsanleitung), beside the unspaced scripts of the corpus above.
const corpus: PageInput[] = [
  { id: "zh", title: "网关配置", path: "zh", markdown: "本页介绍如何安装和配置网关的地址。" },
  { id: "ja", title: "インストール手順", path: "ja", markdown: "ゲートウェイをインストールする手順を説明します。設定ファイルを編集してください。" },
  { id: "ko", title: "서버 준비", path: "ko", markdown: "게이트웨이를 설치하기 전에 서버를 준비합니다. 설치를 마치면 게이트웨이설정을 확인하세요." },
  { id: "th", title: "การติดตั้ง", path: "th", markdown: "ติดตั้งเกตเวย์บนเซิร์ฟเวอร์ของคุณ" },
  { id: "de", title: "Installationsanleitung", path: "de", markdown: "Die Konfigurationsdatei liegt im Datenverzeichnis. Die Datenbankverbindung wird beim Start geprüft." },
  { id: "en", title: "Gateway", path: "en", markdown: "Install the gateway and configure its address." },
];

function find(query: string): string[] {
  const index = new SearchIndex();
  index.indexRevision("space", "rev", corpus);
  return index.search(query, { spaceIds: ["space"] }).map((hit) => hit.id);
}

describe("a corpus in Chinese, Japanese, Korean, Thai and German compounds", () => {
  test.each([
    ["网关", "zh"],
    ["安装", "zh"],
    ["地址", "zh"],
    ["インストール", "ja"],
    ["設定", "ja"],
    ["手順", "ja"],
    ["เซิร์ฟเวอร์", "th"],
    ["เกตเวย์", "th"],
    // a Korean stem finds its forms with particles and endings, and a word inside a compound
    ["설치", "ko"],
    ["서버", "ko"],
    ["준비", "ko"],
    ["설정", "ko"],
    ["확인", "ko"],
    // German compounds are found by their parts, first, last or inside
    ["Anleitung", "de"],
    ["Konfiguration", "de"],
    ["Datei", "de"],
    ["Verzeichnis", "de"],
    ["Verbindung", "de"],
    ["Datenbank", "de"],
    ["Konfigurationsdatei", "de"],
  ])("%s finds its page", (query, page) => {
    expect(find(query)).toEqual([page]);
  });

  test("a word found inside a longer one ranks below the same word standing alone", () => {
    const index = new SearchIndex();
    index.indexRevision("space", "rev", [
      { id: "compound", title: "Installationsanleitung", path: "compound", markdown: "Schritte der Installationsanleitung." },
      { id: "word", title: "Anleitung", path: "word", markdown: "Eine Anleitung." },
    ]);
    expect(index.search("Anleitung", { spaceIds: ["space"] }).map((hit) => hit.id)).toEqual(["word", "compound"]);
    expect(index.search("Anleitung", { spaceIds: ["space"] })[1].sections[0].body).toContain("Installationsanleitung");
  });

  test.each(["ung", "tion", "atei", "leit", "설", "치", "정", "ゲ", "데이터", "データ", "数据", "zzz", "Datum", "Anleitungen", "2.1"])(
    "the short or unrelated query %p finds nothing",
    (query) => {
      expect(find(query)).toEqual([]);
    },
  );

  test("numbers and codes are matched whole, never inside a word", () => {
    const index = new SearchIndex();
    index.indexRevision("space", "rev", [{ id: "code", title: "Codes", path: "code", markdown: "Fehler ERR12345678 und v20240101." }]);
    expect(index.search("12345", { spaceIds: ["space"] })).toEqual([]);
    expect(index.search("err12345678", { spaceIds: ["space"] }).map((hit) => hit.id)).toEqual(["code"]);
  });

  test("the words kept for matching inside words count toward the index's memory", () => {
    const space = SpaceIndex.build("space", "rev", corpus);
    const side = infixBytes(space.infix);
    expect(side).toBeGreaterThan(2 * "installationsanleitungkonfigurationsdatei".length);
    const withoutSide = SpaceIndex.build("space", "rev", corpus.map((page) => ({ ...page, title: "x", markdown: "" })));
    expect(infixBytes(withoutSide.infix)).toBeLessThan(side);
    expect(approximateBytes(space)).toBeGreaterThanOrEqual(side + space.termCount * 80);
  });
});
