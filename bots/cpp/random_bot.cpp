// A complete arena bot in C++17 (standard library only) that plays a random
// legal move in every variant, Qango and Quinque. Copy it to start your own
// bot: replace choose_move(). The protocol is in protocol/PROTOCOL.md.
//
//     g++ -std=c++17 -O2 -o random_bot bots/cpp/random_bot.cpp
//     ./random_bot [--seed N]
//
// JSON handling: a small complete reader (Json::parse) into a Value tree.
// It does not depend on field order, spacing or line length (std::getline
// reads a line of any length). \uXXXX escapes are decoded for the Basic
// Multilingual Plane (arena sends plain ASCII in types and moves).

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

struct Value {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool boolean = false;
    double number = 0;
    std::string text;
    std::vector<Value> items;
    std::map<std::string, Value> fields;

    const Value *get(const std::string &key) const {
        auto it = fields.find(key);
        return it == fields.end() ? nullptr : &it->second;
    }
};

class Json {
  public:
    static Value parse(const std::string &text) {
        Json json(text);
        Value v = json.value();
        json.space();
        if (json.pos_ != text.size()) json.fail("text after the value");
        return v;
    }

    static std::string quote(const std::string &s) {
        std::string out = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        return out + "\"";
    }

  private:
    explicit Json(const std::string &text) : text_(text) {}
    const std::string &text_;
    size_t pos_ = 0;

    [[noreturn]] void fail(const std::string &what) {
        throw std::runtime_error(what + " at character " + std::to_string(pos_));
    }
    void space() {
        while (pos_ < text_.size() && std::string(" \t\r\n").find(text_[pos_]) != std::string::npos) pos_++;
    }
    char peek() {
        space();
        if (pos_ >= text_.size()) fail("unexpected end");
        return text_[pos_];
    }
    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        pos_++;
    }

    Value value() {
        switch (peek()) {
        case '{': return object();
        case '[': return array();
        case '"': { Value v; v.kind = Value::String; v.text = string(); return v; }
        default: return literal();
        }
    }

    Value object() {
        Value v;
        v.kind = Value::Object;
        expect('{');
        if (peek() == '}') { pos_++; return v; }
        while (true) {
            if (peek() != '"') fail("expected a field name");
            std::string key = string();
            expect(':');
            v.fields[key] = value();
            if (peek() == ',') { pos_++; continue; }
            expect('}');
            return v;
        }
    }

    Value array() {
        Value v;
        v.kind = Value::Array;
        expect('[');
        if (peek() == ']') { pos_++; return v; }
        while (true) {
            v.items.push_back(value());
            if (peek() == ',') { pos_++; continue; }
            expect(']');
            return v;
        }
    }

    std::string string() {
        std::string out;
        pos_++; // the opening quote
        while (true) {
            if (pos_ >= text_.size()) fail("unterminated string");
            char c = text_[pos_++];
            if (c == '"') return out;
            if (c != '\\') { out += c; continue; }
            if (pos_ >= text_.size()) fail("unterminated escape");
            char e = text_[pos_++];
            switch (e) {
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                if (pos_ + 4 > text_.size()) fail("short \\u escape");
                unsigned code = std::stoul(text_.substr(pos_, 4), nullptr, 16);
                pos_ += 4;
                if (code < 0x80) {
                    out += char(code);
                } else if (code < 0x800) {
                    out += char(0xC0 | (code >> 6));
                    out += char(0x80 | (code & 0x3F));
                } else {
                    out += char(0xE0 | (code >> 12));
                    out += char(0x80 | ((code >> 6) & 0x3F));
                    out += char(0x80 | (code & 0x3F));
                }
                break;
            }
            default: out += e; // \" \\ \/
            }
        }
    }

    Value literal() {
        size_t start = pos_;
        while (pos_ < text_.size() && std::string(",]} \t\r\n").find(text_[pos_]) == std::string::npos) pos_++;
        std::string word = text_.substr(start, pos_ - start);
        Value v;
        if (word == "true" || word == "false") {
            v.kind = Value::Bool;
            v.boolean = word == "true";
        } else if (word != "null") {
            char *end = nullptr;
            v.kind = Value::Number;
            v.number = std::strtod(word.c_str(), &end);
            if (word.empty() || *end != '\0') { pos_ = start; fail("unexpected \"" + word + "\""); }
        }
        return v;
    }
};

// stdout belongs to the protocol; logs go to stderr.
static void send(const std::string &line) {
    std::cout << line << '\n' << std::flush; // an unflushed move is a timeout
}

// turn["legal_moves"] is the complete list of legal moves, never empty.
static std::string choose_move(const Value &turn, std::mt19937_64 &rng) {
    const Value *moves = turn.get("legal_moves");
    std::uniform_int_distribution<size_t> pick(0, moves->items.size() - 1);
    return moves->items[pick(rng)].text;
}

int main(int argc, char **argv) {
    std::ios::sync_with_stdio(false);
    unsigned long long seed = std::random_device{}();
    if (argc == 3 && std::string(argv[1]) == "--seed") {
        seed = std::strtoull(argv[2], nullptr, 10);
    } else if (argc != 1) {
        std::cerr << "usage: " << argv[0] << " [--seed N]\n";
        return 2;
    }
    std::mt19937_64 rng(seed);
    std::cerr << "random_bot.cpp: seed " << seed << std::endl;

    std::string line;
    while (std::getline(std::cin, line)) { // false at end of input: the referee is gone
        Value message;
        try {
            message = Json::parse(line);
        } catch (const std::exception &e) {
            std::cerr << "ignoring a line that is not JSON (" << e.what() << ")" << std::endl;
            continue;
        }
        const Value *type = message.get("type");
        if (!type || type->kind != Value::String) continue;
        if (type->text == "hello") {
            send(R"({"type":"ready","name":"random-cpp","protocol":1,"author":"arena examples"})");
        } else if (type->text == "turn") {
            send(R"({"type":"move","move":)" + Json::quote(choose_move(message, rng)) + "}");
        } else if (type->text == "game_over") {
            const Value *reason = message.get("reason");
            std::cerr << "game over: " << (reason ? reason->text : "?") << std::endl;
        } else if (type->text == "quit") {
            break;
        }
        // new_game and unknown types: no answer.
    }
    return 0;
}
