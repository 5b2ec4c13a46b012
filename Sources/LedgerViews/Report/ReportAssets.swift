/// The report's inline style sheet and script (no external resource of any kind).
///
/// The script reads `#map-data` (ReportPage+Map.swift), draws every line as a `polyline.line`
/// and every station as a `circle.station` (completed ones last, so they stay on top), then pans
/// with a drag, zooms with the wheel, a double click or a pinch, and shows a station's name,
/// operator, lines, date and memo for the nearest station under the pointer or a tap (a tap
/// searches a wider radius: fingers are wide).
enum ReportAssets {
    static let css = """
        :root{--done:#d3302f;--rest:#b3bcc6}
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.5 system-ui,-apple-system,"Hiragino Sans","Noto Sans CJK JP",sans-serif;color:#222;background:#f6f7f9}
        header,section{max-width:960px;margin:0 auto;padding:6px 12px}
        h1{font-size:1.3em;margin:.3em 0}h2{font-size:1.1em;margin:.5em 0}summary h2{display:inline}
        #summary{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:center;margin:.2em 0}
        .bar{display:inline-block;width:100%;min-width:50px;height:10px;background:#e3e7ec;border-radius:5px;overflow:hidden;vertical-align:middle}
        .bar>span{display:block;height:100%;background:var(--done)}
        #summary .bar{width:160px}
        #map-frame{position:relative;width:100%;height:min(72vh,640px);background:#fff;border:1px solid #d0d5db;border-radius:6px;overflow:hidden;touch-action:none}
        #map{width:100%;height:100%;display:block;cursor:grab;user-select:none;-webkit-user-select:none}
        .line{fill:none;stroke:var(--rest);stroke-width:1.2;vector-effect:non-scaling-stroke;stroke-linejoin:round}
        .line.completed{stroke:var(--done);stroke-width:2.4}
        .station{fill:#fff;stroke:#8a96a3;stroke-width:.8;vector-effect:non-scaling-stroke;r:var(--r,30px)}
        .station.completed{fill:var(--done);stroke:#8e1b1a}
        #tip{position:absolute;left:0;top:0;max-width:min(320px,90%);background:rgba(255,255,255,.97);border:1px solid #aab;border-radius:6px;padding:6px 8px;font-size:13px;box-shadow:0 2px 8px rgba(0,0,0,.2);pointer-events:none}
        #tip b{font-size:15px}
        .legend .key{display:inline-block;width:12px;height:12px;border-radius:6px;margin:0 4px -1px 8px}
        .key.done{background:var(--done)}.key.rest{background:var(--rest)}
        .help{color:#667;font-size:12px;margin:.2em 0}.legend{margin:.2em 0}
        table{width:100%;border-collapse:collapse}
        th,td{padding:3px 6px;border-bottom:1px solid #e3e7ec;text-align:left;font-weight:normal}
        tr.group th{font-weight:bold}#operators tr:not(.group) th{padding-left:20px}
        td.barcell{width:35%}td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
        #events td{white-space:nowrap}
        summary{cursor:pointer}.total{color:#445;margin-left:8px}
        .scroll{overflow-x:auto}
        .chart{width:100%;height:auto;font-size:11px;fill:#334;display:block}
        .chart .year{fill:#f0a8a7}.chart .cumulative{fill:none;stroke:var(--done);stroke-width:2}
        .chart .axis{stroke:#889}.chart .all{fill:#e3e7ec}.chart .done{fill:var(--done)}
        @media (max-width:600px){th,td{padding:2px 3px;font-size:12px}td.barcell{width:22%}#summary .bar{width:100px}h1{font-size:1.1em}}
        """

    static let script = """
        (function(){"use strict";
        var NS="http://www.w3.org/2000/svg",data=JSON.parse(document.getElementById("map-data").textContent);
        var svg=document.getElementById("map"),tip=document.getElementById("tip"),frame=document.getElementById("map-frame");
        var vb=svg.getAttribute("viewBox").split(" ").map(Number),home=vb.slice(),st=data.st,lines=data.lines;
        var stLines=st.map(function(){return [];}),gl=document.createElementNS(NS,"g"),gs=document.createElementNS(NS,"g");
        function byDone(flag){return function(a,b){return flag(a)-flag(b)||a-b;};}
        lines.map(function(l,i){return i;}).sort(byDone(function(i){return lines[i][3];})).forEach(function(i){
          var l=lines[i],p=document.createElementNS(NS,"polyline");
          p.setAttribute("class",l[3]?"line completed":"line");p.setAttribute("data-line",l[0]);
          p.setAttribute("points",l[4].map(function(k){stLines[k].push(i);return st[k][3]+","+st[k][4];}).join(" "));
          gl.appendChild(p);});
        st.map(function(s,i){return i;}).sort(byDone(function(i){return st[i][5]>0?1:0;})).forEach(function(i){
          var s=st[i],c=document.createElementNS(NS,"circle");
          c.setAttribute("class",s[5]>0?"station completed":"station");c.setAttribute("data-station",s[0]);
          c.setAttribute("cx",s[3]);c.setAttribute("cy",s[4]);gs.appendChild(c);});
        svg.appendChild(gl);svg.appendChild(gs);
        function scale(){return Math.min((svg.clientWidth||1)/vb[2],(svg.clientHeight||1)/vb[3]);}
        function apply(){svg.setAttribute("viewBox",vb.join(" "));
          var z=Math.sqrt(home[2]/vb[2]);svg.style.setProperty("--r",(Math.min(6,0.9*z+0.4)/scale()).toFixed(3)+"px");}
        function toMap(x,y){var p=svg.createSVGPoint();p.x=x;p.y=y;return p.matrixTransform(svg.getScreenCTM().inverse());}
        function zoom(m,f){var w=vb[2]*f;if(w<home[2]/300||w>home[2]*2)return;
          vb=[m.x-(m.x-vb[0])*f,m.y-(m.y-vb[1])*f,vb[2]*f,vb[3]*f];apply();}
        function esc(t){return String(t).replace(/[&<>"]/g,function(c){return {"&":"&amp;","<":"&lt;",">":"&gt;","\\"":"&quot;"}[c];});}
        var pinned=false;
        function hide(){tip.hidden=true;}
        function show(i,cx,cy){var s=st[i],names=stLines[i].map(function(k){return lines[k][1];});
          tip.innerHTML="<b>"+esc(s[1])+"</b><br>"+esc(data.ops[s[2]])+(names.length?"<br>"+esc(names.join("、")):"")+
            "<br>"+esc(s[5]>0?data.dates[s[5]]:data.none)+(s[6]?"<br>"+esc(s[6]):"");
          tip.hidden=false;var r=frame.getBoundingClientRect(),x=cx-r.left+12,y=cy-r.top+12;
          if(x+tip.offsetWidth>r.width)x=Math.max(0,cx-r.left-tip.offsetWidth-12);
          if(y+tip.offsetHeight>r.height)y=Math.max(0,cy-r.top-tip.offsetHeight-12);
          tip.style.left=x+"px";tip.style.top=y+"px";}
        function pick(cx,cy,px,sticky){var m=toMap(cx,cy),lim=px/scale(),best=-1,bd=lim*lim;
          for(var i=0;i<st.length;i++){var dx=st[i][3]-m.x,dy=st[i][4]-m.y,d=dx*dx+dy*dy;if(d<bd){bd=d;best=i;}}
          if(sticky)pinned=best>=0;
          if(best>=0)show(best,cx,cy);else if(sticky||!pinned)hide();}
        var ptrs={},moved=0;
        svg.addEventListener("pointerdown",function(e){ptrs[e.pointerId]={x:e.clientX,y:e.clientY};moved=0;
          try{svg.setPointerCapture(e.pointerId);}catch(_){}});
        svg.addEventListener("pointermove",function(e){var p=ptrs[e.pointerId];
          if(!p){if(!pinned&&e.pointerType==="mouse")pick(e.clientX,e.clientY,8,false);return;}
          var ids=Object.keys(ptrs);
          if(ids.length===1){var dx=e.clientX-p.x,dy=e.clientY-p.y,s=scale();moved+=Math.abs(dx)+Math.abs(dy);
            vb[0]-=dx/s;vb[1]-=dy/s;apply();}
          else if(ids.length===2){var o=ptrs[ids[0]==e.pointerId?ids[1]:ids[0]];moved+=100;
            var d0=Math.hypot(p.x-o.x,p.y-o.y),d1=Math.hypot(e.clientX-o.x,e.clientY-o.y);
            if(d0>0&&d1>0)zoom(toMap((e.clientX+o.x)/2,(e.clientY+o.y)/2),d0/d1);}
          p.x=e.clientX;p.y=e.clientY;});
        svg.addEventListener("pointerup",function(e){
          if(ptrs[e.pointerId]&&Object.keys(ptrs).length===1&&moved<6)pick(e.clientX,e.clientY,e.pointerType==="mouse"?10:20,true);
          delete ptrs[e.pointerId];});
        svg.addEventListener("pointercancel",function(e){delete ptrs[e.pointerId];});
        svg.addEventListener("wheel",function(e){e.preventDefault();zoom(toMap(e.clientX,e.clientY),Math.pow(1.0015,e.deltaY));},{passive:false});
        svg.addEventListener("dblclick",function(e){zoom(toMap(e.clientX,e.clientY),0.5);});
        window.addEventListener("resize",apply);apply();
        })();
        """
}
