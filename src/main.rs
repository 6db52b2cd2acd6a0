fn main() {
    arena::referee::trace::mark_start();
    std::process::exit(arena::cli::main());
}
