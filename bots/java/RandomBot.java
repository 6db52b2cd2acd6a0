// A complete arena bot in Java (standard library only) that plays a random
// legal move in every variant, Qango and Quinque. Copy it to start your own
// bot: replace chooseMove(). The protocol is in protocol/PROTOCOL.md.
//
//     javac -d build bots/java/RandomBot.java
//     java -cp build RandomBot [--seed N]
//
// JSON handling: Java has no JSON parser in its standard library, so this
// file carries a small complete one (Json.parse below): objects become
// Map<String, Object>, arrays List<Object>, strings String, numbers Double,
// true/false Boolean, null null. It does not depend on field order, spacing
// or line length (BufferedReader.readLine reads a line of any length).

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public final class RandomBot {
    // stdout belongs to the protocol; logs go to stderr.
    private static final PrintStream OUT =
            new PrintStream(System.out, false, StandardCharsets.UTF_8);

    private static void send(String line) {
        OUT.print(line + "\n");
        OUT.flush(); // an unflushed move is a timeout
    }

    private static void log(String text) {
        System.err.println(text);
    }

    /** turn.legal_moves is the complete list of legal moves, never empty. */
    static String chooseMove(Map<String, Object> turn, Random rng) {
        List<?> moves = (List<?>) turn.get("legal_moves");
        return (String) moves.get(rng.nextInt(moves.size()));
    }

    public static void main(String[] args) throws IOException {
        long seed = System.nanoTime();
        if (args.length == 2 && args[0].equals("--seed")) {
            seed = Long.parseLong(args[1]);
        } else if (args.length != 0) {
            log("usage: java RandomBot [--seed N]");
            System.exit(2);
        }
        Random rng = new Random(seed);
        log("RandomBot.java: seed " + seed);

        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) { // null: end of input, the referee is gone
            Map<String, Object> message;
            try {
                Object value = Json.parse(line);
                if (!(value instanceof Map)) {
                    continue;
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> object = (Map<String, Object>) value;
                message = object;
            } catch (IllegalArgumentException e) {
                log("ignoring a line that is not JSON (" + e.getMessage() + ")");
                continue;
            }
            Object type = message.get("type");
            if ("hello".equals(type)) {
                send("{\"type\":\"ready\",\"name\":\"random-java\",\"protocol\":1,"
                        + "\"author\":\"arena examples\"}");
            } else if ("turn".equals(type)) {
                send("{\"type\":\"move\",\"move\":" + Json.quote(chooseMove(message, rng)) + "}");
            } else if ("game_over".equals(type)) {
                log("game " + message.get("game_id") + ": " + message.get("result")
                        + " (" + message.get("reason") + ")");
            } else if ("quit".equals(type)) {
                break;
            }
            // new_game and unknown types: no answer.
        }
    }

    /** A small, complete JSON reader and a string writer. */
    static final class Json {
        private final String text;
        private int pos;

        private Json(String text) {
            this.text = text;
        }

        static Object parse(String text) {
            Json json = new Json(text);
            Object value = json.value();
            json.space();
            if (json.pos != text.length()) {
                throw json.error("text after the value");
            }
            return value;
        }

        static String quote(String s) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    b.append('\\').append(c);
                } else if (c < 0x20) {
                    b.append(String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
            return b.append('"').toString();
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at character " + pos);
        }

        private void space() {
            while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
        }

        private char peek() {
            space();
            if (pos >= text.length()) {
                throw error("unexpected end");
            }
            return text.charAt(pos);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        private Object value() {
            char c = peek();
            switch (c) {
                case '{':
                    return object();
                case '[':
                    return array();
                case '"':
                    return string();
                default:
                    return literal();
            }
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            expect('{');
            if (peek() == '}') {
                pos++;
                return map;
            }
            while (true) {
                if (peek() != '"') {
                    throw error("expected a field name");
                }
                String key = string();
                expect(':');
                map.put(key, value());
                if (peek() == ',') {
                    pos++;
                } else {
                    expect('}');
                    return map;
                }
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            expect('[');
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                list.add(value());
                if (peek() == ',') {
                    pos++;
                } else {
                    expect(']');
                    return list;
                }
            }
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            pos++; // the opening quote
            while (true) {
                if (pos >= text.length()) {
                    throw error("unterminated string");
                }
                char c = text.charAt(pos++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (pos >= text.length()) {
                    throw error("unterminated escape");
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'n': b.append('\n'); break;
                    case 'r': b.append('\r'); break;
                    case 't': b.append('\t'); break;
                    case 'u':
                        if (pos + 4 > text.length()) {
                            throw error("short \\u escape");
                        }
                        b.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        pos += 4;
                        break;
                    default: b.append(e); // \" \\ \/
                }
            }
        }

        private Object literal() {
            int start = pos;
            while (pos < text.length() && ",]} \t\r\n".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
            String word = text.substring(start, pos);
            switch (word) {
                case "true":
                    return Boolean.TRUE;
                case "false":
                    return Boolean.FALSE;
                case "null":
                    return null;
                default:
                    try {
                        return Double.valueOf(word);
                    } catch (NumberFormatException e) {
                        pos = start;
                        throw error("unexpected \"" + word + "\"");
                    }
            }
        }
    }
}
