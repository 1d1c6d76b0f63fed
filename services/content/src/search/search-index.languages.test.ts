// Search in languages written without spaces (words segmented by Intl.Segmenter), beside spaced ones.
import { SearchIndex, type PageInput } from "./search-index";
import { wordsOf } from "./space-index";

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
