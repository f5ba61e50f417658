#version 430 core
// The viewer's HUD and panel: coloured triangles in framebuffer pixels, origin at the top left.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_color;
uniform vec2 u_viewport;
out vec4 v_color;
void main()
{
    gl_Position =
        vec4(a_pos.x / u_viewport.x * 2.0 - 1.0, 1.0 - a_pos.y / u_viewport.y * 2.0, 0.0, 1.0);
    v_color = a_color;
}
