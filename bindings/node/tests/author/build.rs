//! Node-API link setup, as in every napi addon.

fn main() {
    napi_build::setup();
}
