fn main() {
    std::process::exit(arena::cli::main());
}
