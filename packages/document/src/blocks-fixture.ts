// One page with every block and mark GitBook's Git Sync writes, as GitBook writes them: the renderer's unit
// tests read it, and the browser suites publish it and screenshot it (`@docshelf/document/dist/blocks-fixture`).
// Each `BLOCK_SELECTORS` entry is an element the rendered page must hold for that block.

export const BLOCKS_PAGE = `Some **bold**, _italic_, ~~struck~~ and \`code\` text, a <mark style="color:red;">red mark</mark>, an icon <i class="fa-check">:check:</i> and emoji 🎉.

## Hints

{% hint style="info" %}
**Info:** an info hint with a [link](https://example.com/docs).
{% endhint %}

{% hint style="success" %}
A success hint.
{% endhint %}

{% hint style="warning" %}
A warning hint.
{% endhint %}

{% hint style="danger" %}
A danger hint.
{% endhint %}

## Code

{% code title="install.sh" overflow="wrap" lineNumbers="true" %}
\`\`\`bash
# install the tool
npm install --save docshelf-cli && docshelf init --name "my docs" --with-a-very-long-option-name-that-wraps-on-small-screens
\`\`\`
{% endcode %}

\`\`\`javascript
const answer = 42; // a comment
console.log(\`the answer is \${answer}\`, "a very long string that makes this line scroll inside its block on a small screen");
\`\`\`

## Tabs

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install docshelf
\`\`\`
{% endtab %}

{% tab title="yarn" %}
Use **yarn** instead.
{% endtab %}
{% endtabs %}

## Expandable

<details>

<summary>Click to expand</summary>

Hidden content, with a list:

* one
* two

</details>

## Stepper

{% stepper %}
{% step %}
### Install

Run the installer.
{% endstep %}

{% step %}
### Configure

Edit the file.
{% endstep %}
{% endstepper %}

## Cards

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Quickstart</strong></td><td>Start in five minutes.</td><td><a href="https://example.com/quickstart">https://example.com/quickstart</a></td></tr><tr><td><strong>API reference</strong></td><td>Every endpoint.</td><td><a href="https://example.com/api">https://example.com/api</a></td></tr></tbody></table>

## Columns

{% columns %}
{% column %}
The left column.
{% endcolumn %}

{% column %}
The right column.
{% endcolumn %}
{% endcolumns %}

## Table

| Name | Value | Notes |
| --- | :-: | --: |
| alpha | 1 | first |
| beta | **2** | [docs](https://example.com) |

## Media

<figure><img src="https://example.com/diagram.png" alt="A diagram"><figcaption><p>The diagram</p></figcaption></figure>

{% file src="https://example.com/manual.pdf" %}
The manual
{% endfile %}

{% embed url="https://github.com/docshelf/docshelf" %}

{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}

## References

{% content-ref url="https://example.com/guide" %}
[guide](https://example.com/guide)
{% endcontent-ref %}

<a href="https://example.com/start" class="button primary">Get started</a> <a href="https://example.com/more" class="button secondary">Learn more</a>

## Math

The formula $$E = mc^2$$ inline, and a block:

$$
\\int_0^1 x^2 \\, dx = \\frac{1}{3}
$$

## API

{% swagger src="https://example.com/openapi.yaml" path="/pets" method="get" summary="List pets" %}
{% swagger-description %}
Lists every pet.
{% endswagger-description %}

{% swagger-parameter in="query" name="limit" type="integer" %}
How many
{% endswagger-parameter %}

{% swagger-response status="200: OK" description="The pets" %}
\`\`\`json
[{"id": 1}]
\`\`\`
{% endswagger-response %}
{% endswagger %}

{% openapi src="https://example.com/openapi.yaml" path="/pets/{id}" method="delete" %}
[https://example.com/openapi.yaml](https://example.com/openapi.yaml)
{% endopenapi %}

#### A fourth-level heading

* [x] A done task
* [ ] A task to do

> A quote.

***
`;

/** For each block type of the page above, a CSS selector of what it renders to. */
export const BLOCK_SELECTORS: Record<string, string> = {
  "hint info": ".hint.hint-info",
  "hint success": ".hint.hint-success",
  "hint warning": ".hint.hint-warning",
  "hint danger": ".hint.hint-danger",
  "code title": ".code-block .code-title",
  "code line numbers": ".code-block pre.line-numbers .line",
  "highlighted code": "pre code.hljs .hljs-keyword",
  tabs: ".tabs .tab-panel",
  expandable: "details.expandable summary",
  stepper: "ol.stepper li.step",
  cards: ".cards .card a.card-link",
  columns: ".columns .column",
  table: ".table-wrap table td",
  image: "figure.image figcaption",
  file: "a.file-card",
  "embed link card": "a.embed-card",
  "embed video": ".embed-frame iframe",
  "content-ref": "a.content-ref",
  button: "a.button.primary",
  "inline math": "p math",
  "math block": ".math-block math",
  "api card": ".api-card .api-method-get",
  "mark": "mark.mark-red",
  "task list": "ul.tasks .task-box",
  "heading link": "h2 a.anchor",
};
