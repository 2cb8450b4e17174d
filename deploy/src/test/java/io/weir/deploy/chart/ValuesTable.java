package io.weir.deploy.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart README's parameters section, made from the chart itself: each value's description from
 * its {@code ## @param} line in values.yaml (grouped by the {@code ## @section} lines), its default
 * from values.yaml and what it accepts from values.schema.json. {@code ValuesTableTest} checks the
 * README holds exactly this and that every value has a description; {@link #main} writes it
 * ({@code mvn -B -q -pl deploy -am test-compile -Pupdate-chart-readme}).
 */
final class ValuesTable {

    static final String BEGIN = "<!-- parameters: generated from values.yaml and values.schema.json, do not edit -->";
    static final String END = "<!-- end of parameters -->";

    private static final Pattern SECTION = Pattern.compile("^## @section (.+)$");
    private static final Pattern PARAM = Pattern.compile("^## @param (\\S+) (.+)$");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One documented value: its dotted path, section and description. */
    record Param(String path, String section, String description) {}

    private final List<Param> params;
    private final JsonNode values;
    private final JsonNode schema;

    private ValuesTable(List<Param> params, JsonNode values, JsonNode schema) {
        this.params = params;
        this.values = values;
        this.schema = schema;
    }

    static ValuesTable of(Path chart) {
        try {
            Path valuesFile = chart.resolve("values.yaml");
            return new ValuesTable(
                    params(Files.readAllLines(valuesFile)),
                    YAML.readTree(valuesFile.toFile()),
                    JSON.readTree(chart.resolve("values.schema.json").toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Param> params(List<String> lines) {
        List<Param> params = new ArrayList<>();
        String section = "";
        for (String line : lines) {
            Matcher s = SECTION.matcher(line);
            Matcher p = PARAM.matcher(line);
            if (s.matches()) {
                section = s.group(1).trim();
            } else if (p.matches()) {
                params.add(new Param(p.group(1), section, p.group(2).trim()));
            }
        }
        return params;
    }

    List<Param> params() {
        return params;
    }

    /** The Markdown between the README's markers. */
    String markdown() {
        Map<String, List<Param>> bySection = new LinkedHashMap<>();
        params.forEach(p ->
                bySection.computeIfAbsent(p.section(), s -> new ArrayList<>()).add(p));
        StringBuilder out = new StringBuilder();
        bySection.forEach((section, ps) -> {
            out.append("\n### ").append(section).append("\n\n");
            out.append("| Value | Description | Default | Accepts |\n|---|---|---|---|\n");
            for (Param p : ps) {
                out.append("| `")
                        .append(p.path())
                        .append("` | ")
                        .append(cell(p.description()))
                        .append(" | ")
                        .append(defaultOf(p.path()))
                        .append(" | ")
                        .append(cell(accepts(schemaOf(p.path()))))
                        .append(" |\n");
            }
        });
        return out.toString();
    }

    /** Dotted paths of every leaf value in values.yaml (an empty map or list counts as a leaf). */
    List<String> leaves() {
        List<String> leaves = new ArrayList<>();
        collectLeaves(values, "", leaves);
        return leaves;
    }

    /** The value at a dotted path of values.yaml, or null. */
    JsonNode value(String path) {
        JsonNode node = values;
        for (String part : path.split("\\.")) {
            node = node == null ? null : node.get(part);
        }
        return node;
    }

    private static void collectLeaves(JsonNode node, String prefix, List<String> leaves) {
        if (node.isObject() && node.size() > 0) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                collectLeaves(f.getValue(), prefix.isEmpty() ? f.getKey() : prefix + "." + f.getKey(), leaves);
            }
        } else {
            leaves.add(prefix);
        }
    }

    private String defaultOf(String path) {
        JsonNode value = value(path);
        if (value == null || value.isNull()) {
            return "";
        }
        if (value.isTextual()) {
            return value.asText().isEmpty() ? "`\"\"`" : "`" + value.asText() + "`";
        }
        String json = value.toString();
        return json.length() > 60 ? "see values.yaml" : "`" + json.replace("|", "\\|") + "`";
    }

    /** The schema node of a dotted path (following $ref), or a missing node. */
    JsonNode schemaOf(String path) {
        JsonNode node = schema;
        for (String part : path.split("\\.")) {
            node = resolve(node).path("properties").path(part);
        }
        return resolve(node);
    }

    private JsonNode resolve(JsonNode node) {
        while (node.has("$ref")) {
            String ref = node.get("$ref").asText();
            node = schema.at(ref.substring(1));
        }
        return node;
    }

    private String accepts(JsonNode node) {
        if (node.isMissingNode()) {
            return "";
        }
        if (node.has("enum")) {
            List<String> values = new ArrayList<>();
            node.get("enum").forEach(v -> values.add(v.isTextual() && v.asText().isEmpty() ? "\"\"" : v.asText()));
            return "one of " + String.join(", ", values);
        }
        if (node.has("oneOf") || node.has("anyOf")) {
            List<String> kinds = new ArrayList<>();
            node.path(node.has("oneOf") ? "oneOf" : "anyOf").forEach(n -> kinds.add(accepts(resolve(n))));
            return String.join(" or ", kinds);
        }
        String type = node.path("type").isArray()
                ? node.path("type").toString()
                : node.path("type").asText();
        StringBuilder out = new StringBuilder(type.isEmpty() ? "any" : type);
        if (node.has("minimum") && node.has("maximum")) {
            out.append(' ')
                    .append(node.get("minimum").asText())
                    .append(" to ")
                    .append(node.get("maximum").asText());
        } else if (node.has("minimum")) {
            out.append(" ≥ ").append(node.get("minimum").asText());
        }
        if (node.has("pattern")) {
            out.append(" matching `").append(node.get("pattern").asText()).append('`');
        }
        if (node.path("minLength").asInt() > 0) {
            out.append(", not empty");
        }
        return out.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    /** {@code readme} with the text between the markers replaced by {@code section}. */
    static String replaceSection(String readme, String section) {
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException(
                    "the chart README has no parameters markers: add the lines\n" + BEGIN + "\n" + END);
        }
        return readme.substring(0, begin + BEGIN.length()) + "\n" + section + "\n" + readme.substring(end);
    }

    /** Writes the parameters section of the chart's README.md; the argument is the chart directory. */
    public static void main(String[] args) throws IOException {
        Path chart = Path.of(args[0]);
        Path readme = chart.resolve("README.md");
        Files.writeString(
                readme, replaceSection(Files.readString(readme), of(chart).markdown()));
    }
}
